import { ApplicationFailure, Context } from '@temporalio/activity';
import type { DeputyConfig } from '../config/schema.js';
import { ModelCallError, ModelConfigError } from '../models/model-adapter.js';
import { createModelAdapter } from '../models/select-model.js';
import type { SecretMasker } from '../secrets/masker.js';
import { deputyRoots, isHiddenFromAgents } from '../paths/deputy-roots.js';
import { pathsOfCalls } from '../tools/call-paths.js';
import { commandsOfCalls } from '../tools/shell-analysis.js';
import type { ModelCall, ModelTurn } from '../shared/workflow-contract/activities.js';
import { FAILURE_TYPES } from '../shared/workflow-contract/failures.js';
import { BlobMissingError, type BlobStore } from './blob-store.js';
import { whileHeartbeating } from './heartbeat.js';
import type { ModelResponse, TranscriptEntry } from '../shared/model-contract.js';
import { schemaProblems } from '../models/check-tool-calls.js';
import { modelCallFailure } from './model-call-failure.js';
import { deputyMetrics } from '../metrics/deputy-metrics.js';
import { withModelCallSpan } from '../tracing/model-call-span.js';

/**
 * One model call: (system, transcript, tools) -> (text, tool calls), plus the calls' real paths.
 * The answer is masked (`secrets`) before the workflow sees it: its text is recorded and
 * streamed, and its tool-call arguments become card arguments and the tools' input.
 */
export async function callModelActivity(
  config: DeputyConfig,
  blobs: BlobStore,
  input: ModelCall,
  secrets: SecretMasker,
): Promise<ModelTurn> {
  const context = Context.current();
  let adapter;
  try {
    adapter = createModelAdapter({
      handle: input.model,
      agentName: input.agentName,
      level: input.level,
      config,
      baseDirectory: input.level === 'builtin' ? config.projectRoot : config.workspace,
      isHidden: (file) => isHiddenFromAgents(deputyRoots(config).hiddenRoots, file),
    });
  } catch (error) {
    if (error instanceof ModelConfigError) {
      throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.modelConfig);
    }
    throw error;
  }
  let transcript: TranscriptEntry[];
  try {
    transcript = await Promise.all(
      input.transcript.map(async (entry) =>
        entry.role === 'tool' && entry.blob
          ? { ...entry, content: await blobs.get(entry.blob), blob: undefined }
          : entry,
      ),
    );
  } catch (error) {
    if (error instanceof BlobMissingError) {
      throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.transcriptMissing);
    }
    throw error;
  }
  let response;
  try {
    const request = { system: input.system, transcript, tools: input.tools };
    response = await whileHeartbeating(() =>
      withModelCallSpan(
        { provider: adapter.provider, model: adapter.model, request, secrets },
        () => adapter.complete(request, { signal: context.cancellationSignal }),
      ),
    );
  } catch (error) {
    deputyMetrics.modelCall(input.model, 'error');
    // A missing API key surfaces only at call time; retrying cannot fix configuration.
    if (error instanceof ModelConfigError) {
      throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.modelConfig);
    }
    if (error instanceof ModelCallError) {
      const failure = modelCallFailure(error, context.info, secrets);
      // Visible where the worker runs, attempt by attempt, not only once the last one failed.
      if (!failure.nonRetryable) context.log.warn(failure.message);
      throw failure;
    }
    throw error;
  }
  // Counted by the handle the configuration names (never the prompt or the calls' arguments).
  deputyMetrics.modelCall(input.model, 'ok', response.usage);
  deputyMetrics.toolsRequested(response.toolCalls, new Set(input.tools.map((tool) => tool.name)));
  const invalidCalls = secrets.value(invalidCallsOf(response, input.tools));
  const answer = {
    ...response,
    text: secrets.text(response.text),
    toolCalls: response.toolCalls.map((call) => ({
      ...call,
      arguments: secrets.value(call.arguments),
    })),
    ...(invalidCalls === undefined ? {} : { invalidCalls }),
  };
  // The workflow's decide() is pure: it needs the calls' real paths, which only Node can know.
  // Likewise what each bash command would run, for Bash(...) patterns: parsing needs Node.
  const callCommands = input.tools.some((tool) => tool.name === 'bash')
    ? await commandsOfCalls(answer.toolCalls)
    : {};
  const { callPaths, linkedPaths } = pathsOfCalls(
    config.workspace,
    input.tools,
    answer.toolCalls,
    () => deputyRoots(config),
  );
  return {
    ...answer,
    ...(adapter.contextTokens === undefined ? {} : { contextTokens: adapter.contextTokens }),
    callPaths,
    ...(Object.keys(linkedPaths).length === 0 ? {} : { linkedPaths }),
    ...(Object.keys(callCommands).length === 0 ? {} : { callCommands }),
  };
}

/**
 * Why calls of the agent's own tools cannot run: arguments the adapter could not read, else
 * arguments that do not fit the tool's parameters. Calls of tools it was not given are left to
 * the workflow, which answers them with the list of its tools.
 */
function invalidCallsOf(
  response: ModelResponse,
  tools: ModelCall['tools'],
): Record<string, string> | undefined {
  const declared = new Set(tools.map((tool) => tool.name));
  const unreadable = response.invalidCalls ?? {};
  const readable = response.toolCalls.filter((call) => !Object.hasOwn(unreadable, call.id));
  const invalid: Record<string, string> = { ...schemaProblems(readable, tools) };
  for (const call of response.toolCalls) {
    if (Object.hasOwn(unreadable, call.id) && declared.has(call.name)) {
      invalid[call.id] = unreadable[call.id]!;
    }
  }
  return Object.keys(invalid).length === 0 ? undefined : invalid;
}
