/**
 * The sandbox boundary: the workflow bundle builds from src/workflows and contains no Node
 * module and no Node-side project code; a workflow that imports one fails to bundle.
 */
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { TRACING_INTERCEPTORS_PATH } from '../../src/tracing/worker-tracing.js';
import { WORKFLOWS_PATH } from '../../src/worker/worker.js';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

describe('workflow bundle', () => {
  it('bundles src/workflows with only sandbox-safe modules', async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: silent });
    const projectModules = [...code.matchAll(/\.\/src\/([\w/-]+)\.ts/g)].map((match) => match[1]);
    expect(projectModules.length).toBeGreaterThan(0);
    for (const module of new Set(projectModules)) {
      expect(module).toMatch(/^(workflows|shared|policy)\//);
    }
    expect(code).not.toMatch(/require\(["'](node:)?(fs|child_process|net|os)["']\)/);
  }, 60_000);

  // Each run evaluates its bundle's modules in its own module cache: the SDK in a traced bundle
  // was most of what tracing cost a step (docs/performance.md).
  it("bundles a traced worker's workflows with OpenTelemetry's API, not its SDK", async () => {
    const { code } = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      workflowInterceptorModules: [TRACING_INTERCEPTORS_PATH],
      logger: silent,
    });
    expect(code).toMatch(/node_modules\/@opentelemetry\/api\//);
    expect(code).toMatch(/W3CTraceContextPropagator/);
    expect(code).not.toMatch(
      /node_modules\/@opentelemetry\/(sdk-trace-base|resources|semantic-conventions)\//,
    );
  }, 60_000);

  it('refuses a workflow that imports a Node module', async () => {
    await expect(
      bundleWorkflowCode({
        workflowsPath: join(PROJECT_ROOT, 'test/fixtures/bad-workflow/index.ts'),
        logger: silent,
      }),
    ).rejects.toThrow(/Webpack finished with errors/);
  }, 60_000);
});
