/**
 * The smoke suite's model (after test/global-setup.ts started Temporal): the endpoint
 * `DEPUTY_SMOKE_MODEL` names, or else the local model, installed into the tools folder when
 * missing (src/servers/model/local-model.ts) and served by llama.cpp on a free loopback port for
 * the length of the run. Tests read it with `inject('smokeEndpoint')`; the Anthropic check reads
 * `inject('smokeAnthropicEndpoint')`, null when there is no Anthropic endpoint to run it on. The
 * teardown prints the table of checks (test/smoke/support/smoke-report.ts) and stops the server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureLocalModel } from '../../src/servers/model/local-model.js';
import { startModelServer } from '../../src/servers/model/model-server.js';
import { formatTable, readRows } from './support/smoke-report.js';
import { parseSmokeEndpoint, type SmokeEndpoint } from './support/smoke-endpoint.js';

declare module 'vitest' {
  export interface ProvidedContext {
    smokeEndpoint: SmokeEndpoint;
    smokeAnthropicEndpoint: SmokeEndpoint | null;
    /** Where each check writes its row of the table. */
    smokeReportDir: string;
  }
}

const log = (line: string): void => void process.stderr.write(`[smoke] ${line}\n`);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const reportDir = await mkdtemp(join(tmpdir(), 'deputy-smoke-report-'));
  project.provide('smokeReportDir', reportDir);
  const chosen = process.env.DEPUTY_SMOKE_MODEL?.trim();
  let stopServer = async (): Promise<void> => {};
  if (chosen) {
    const endpoint = parseSmokeEndpoint(chosen, 'DEPUTY_SMOKE_MODEL');
    const anthropic = process.env.DEPUTY_SMOKE_ANTHROPIC_MODEL?.trim();
    project.provide('smokeEndpoint', endpoint);
    project.provide(
      'smokeAnthropicEndpoint',
      anthropic
        ? parseSmokeEndpoint(anthropic, 'DEPUTY_SMOKE_ANTHROPIC_MODEL')
        : endpoint.provider === 'anthropic'
          ? endpoint
          : null,
    );
  } else {
    const started = Date.now();
    const installed = await ensureLocalModel(process.env, log);
    log(`local model installed or found in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const server = await startModelServer({
      python: installed.python,
      modelPath: installed.modelPath,
      log,
    });
    stopServer = () => server.stop();
    const source = `local llama.cpp, ${installed.weights.name}`;
    project.provide('smokeEndpoint', {
      provider: 'openai',
      baseUrl: `${server.url}/v1`,
      model: server.model,
      source,
    });
    // The same server answers Anthropic's Messages API; the Anthropic SDK adds `/v1` itself.
    project.provide('smokeAnthropicEndpoint', {
      provider: 'anthropic',
      baseUrl: server.url,
      model: server.model,
      source,
    });
  }
  return async () => {
    await stopServer();
    const rows = readRows(reportDir);
    if (rows.length > 0) process.stderr.write(`\nModel smoke checks:\n${formatTable(rows)}\n\n`);
    await rm(reportDir, { recursive: true, force: true });
  };
}
