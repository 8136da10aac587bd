/**
 * Text generation for the agent editor, on the workspace's default model.
 *
 * - `POST /workspace/generate` streams one plain-text answer as SSE (schemas.ts has
 *   the envelope, qwen-code's workspace generation events).
 * - `POST /workspace/agents/generate` answers `{name, description, systemPrompt}` at once: two
 *   generations and a name made from the prompt (qwen-code's compat route).
 *
 * Both are authoring routes: with auth on they need the `admin` role. The configuration is read
 * per request, so an edited `models.default` applies to the next generation. Configured secrets
 * are masked in the prompt (it goes to the provider) and in everything sent back.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { DeputyConfig } from '../../config/schema.js';
import { DeputyError } from '../../errors.js';
import { ModelCallError, ModelConfigError, type ModelAdapter } from '../../models/model-adapter.js';
import { secretMaskerFor, type SecretMasker } from '../../secrets/masker.js';
import type { AppEnv } from '../http/app-env.js';
import { deriveAgentName } from '../agents/derive-name.js';
import { requireAdmin } from '../../rights/rights.js';
import type { Logger } from '../http/errors.js';
import {
  GenerateAgentBodySchema,
  GenerateBodySchema,
  type GeneratedAgent,
  type GenerationEvent,
} from './schemas.js';
import {
  generationRequest,
  textPieces,
  workspaceModel,
  type GenerationTarget,
} from './generation.js';
import { parseBody } from '../http/validation.js';

export interface GenerateRouteDeps {
  /** The workspace configuration, asked per request for its models (LiveConfig is one). */
  settings: { current(): DeputyConfig };
  logger: Logger;
  /**
   * Masks configured secrets in prompts, events and answers. Default: the secrets of the
   * configuration current at each request.
   */
  secrets?: SecretMasker;
}

/** A comment line after this much silence while the model works, so proxies keep the stream. */
const KEEP_ALIVE_MS = 15_000;

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per route, each short.
export function registerGenerateRoutes(app: Hono<AppEnv>, deps: GenerateRouteDeps): void {
  app.post('/workspace/generate', async (c) => {
    requireAdmin(c.get('caller'), 'generating text');
    const body = await parseBody(c, GenerateBodySchema);
    const config = deps.settings.current();
    const secrets = deps.secrets ?? secretMaskerFor(config);
    // Before the stream opens: a model that cannot even be built is a plain 422, not an event.
    const model = defaultModel(config, secrets);
    const target: GenerationTarget = body.kind ?? 'text';
    const request = generationRequest(target, secrets.text(body.prompt));
    const requestId = `gen-${randomUUID()}`;
    // Every failure becomes an `error` event inside the callback: Hono's own handler for a
    // throwing callback would also write the raw error message into the stream.
    return streamSSE(c, async (stream) => {
      const send = (event: GenerationEvent): Promise<void> =>
        stream.writeSSE({ event: event.type, data: JSON.stringify(secrets.value(event)) });
      const cancel = cancelOnDisconnect(c, stream);
      const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      try {
        await send({
          v: 1,
          type: 'started',
          requestId,
          model: model.label,
          modelSource: 'main',
          kind: target,
        });
        // ModelAdapter.complete answers the whole text (the adapters do not stream from the
        // provider), so the pieces come at once when it is done. Real token streaming needs a
        // streaming method on ModelAdapter; this envelope already fits it.
        const response = await model.complete(request, { signal: cancel.signal });
        clearInterval(keepAlive);
        // Masked whole, before cutting: a secret split across two pieces would pass unseen.
        const pieces = textPieces(secrets.text(response.text));
        for (const [seq, text] of pieces.entries()) {
          if (cancel.signal.aborted) return;
          await send({ v: 1, type: 'delta', requestId, seq, text });
        }
        await send({ v: 1, type: 'done', requestId, model: model.label, modelSource: 'main' });
      } catch (error) {
        if (cancel.signal.aborted) {
          deps.logger.info(`generation ${requestId} cancelled: the client closed the connection`);
          return;
        }
        const failure = describeFailure(error, secrets);
        if (failure.code === 'internal') {
          deps.logger.error(`generation ${requestId} failed`, secrets.error(error));
        } else {
          deps.logger.warn(`generation ${requestId} failed: ${failure.message}`);
        }
        await send({ v: 1, type: 'error', requestId, ...failure });
      } finally {
        clearInterval(keepAlive);
        cancel.dispose();
      }
    });
  });

  app.post('/workspace/agents/generate', async (c) => {
    requireAdmin(c.get('caller'), 'generating text');
    const body = await parseBody(c, GenerateAgentBodySchema);
    const config = deps.settings.current();
    const secrets = deps.secrets ?? secretMaskerFor(config);
    const model = defaultModel(config, secrets);
    const prompt = secrets.text(body.prompt ?? body.description ?? '');
    // One failed call cancels the other; a client that leaves cancels both.
    const both = new AbortController();
    const onGone = (): void => both.abort();
    c.req.raw.signal.addEventListener('abort', onGone, { once: true });
    const generate = async (target: GenerationTarget): Promise<string> => {
      const response = await model.complete(generationRequest(target, prompt), {
        signal: both.signal,
      });
      return secrets.text(response.text).trim();
    };
    try {
      // In parallel: the two texts do not depend on each other, and the editor waits for both.
      const [description, systemPrompt] = await Promise.all([
        generate('description'),
        generate('systemPrompt'),
      ]);
      const answer: GeneratedAgent = {
        name: deriveAgentName(prompt, description),
        description,
        systemPrompt,
        model: model.label,
      };
      return c.json(secrets.value(answer));
    } catch (error) {
      if (c.req.raw.signal.aborted) {
        throw new DeputyError(
          'unavailable',
          'the client closed the connection; generation cancelled',
        );
      }
      const failure = describeFailure(error, secrets);
      if (failure.code === 'model_error') throw new DeputyError('unavailable', failure.message);
      if (failure.code === 'invalid_config') {
        throw new DeputyError('invalid', failure.message, { code: 'invalid_config' });
      }
      throw error;
    } finally {
      both.abort();
      c.req.raw.signal.removeEventListener('abort', onGone);
    }
  });
}

/** The workspace's default model, or a 422 `invalid_config` that says why it cannot be used. */
function defaultModel(config: DeputyConfig, secrets: SecretMasker): ModelAdapter {
  try {
    return workspaceModel(config);
  } catch (error) {
    if (error instanceof ModelConfigError) {
      throw new DeputyError(
        'invalid',
        `the workspace's default model cannot be used: ${secrets.text(error.message)}`,
        { code: 'invalid_config' },
      );
    }
    throw error;
  }
}

type Failure = Pick<Extract<GenerationEvent, { type: 'error' }>, 'code' | 'message'>;

/**
 * What a client may read about a failed model call. Provider errors are redacted by the adapters
 * (no API key) and masked again here; anything else is a bug whose message is not shown.
 */
function describeFailure(error: unknown, secrets: SecretMasker): Failure {
  if (error instanceof ModelCallError) {
    return { code: 'model_error', message: secrets.text(error.message) };
  }
  // Found at call time, not when the adapter is built: a missing API key variable.
  if (error instanceof ModelConfigError) {
    return { code: 'invalid_config', message: secrets.text(error.message) };
  }
  return { code: 'internal', message: 'the generation failed; the server logged the cause' };
}

/**
 * Aborted when the client goes: Node's request signal fires when the connection closes before
 * the answer is complete, and the stream reports a cancelled body. Either cancels the model call
 * (the provider's HTTP request is closed, so a paid generation stops too).
 */
function cancelOnDisconnect(
  c: Context,
  stream: SSEStreamingApi,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = (): void => controller.abort(new Error('the client closed the connection'));
  const requestSignal = c.req.raw.signal;
  if (requestSignal.aborted) abort();
  requestSignal.addEventListener('abort', abort, { once: true });
  stream.onAbort(abort);
  return {
    signal: controller.signal,
    dispose: () => requestSignal.removeEventListener('abort', abort),
  };
}
