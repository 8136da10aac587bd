/**
 * The `worker:` section of the configuration: defaults, the file, the DEPUTY_WORKER_* overrides
 * (env wins), errors that name the key (never the value), and what reaches Worker.create.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/shared/config-error.js';
import { loadConfig } from '../src/config/load.js';
import {
  WORKER_TUNING_DEFAULTS,
  WORKER_TUNING_KEYS,
  workerEnvName,
  workerEnvOverrides,
  workerTuningOptions,
} from '../src/config/worker-tuning.js';

const ENV = { DEPUTY_USER_DIR: '/nonexistent-user-dir' };

function workspace(config?: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-worker-tuning-')));
  if (config !== undefined) {
    mkdirSync(join(dir, '.subagents'), { recursive: true });
    writeFileSync(join(dir, '.subagents', 'config.yaml'), config);
  }
  return dir;
}

const load = (config: string | undefined, env: Record<string, string> = {}) =>
  loadConfig({ workspace: workspace(config) }, { ...ENV, ...env });

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('worker tuning', () => {
  it('has the defaults without a file or a section', () => {
    expect(load(undefined).worker).toEqual(WORKER_TUNING_DEFAULTS);
    expect(load('mcpToolTimeoutSeconds: 5\n').worker).toEqual(WORKER_TUNING_DEFAULTS);
  });

  it('reads the file, keeping defaults for keys it leaves out', () => {
    const config = load('worker:\n  maxCachedWorkflows: 200\n  shutdownGraceSeconds: 5\n');
    expect(config.worker).toEqual({
      ...WORKER_TUNING_DEFAULTS,
      maxCachedWorkflows: 200,
      shutdownGraceSeconds: 5,
    });
  });

  it('names every key by its variable', () => {
    expect(workerEnvName('shutdownGraceSeconds')).toBe('DEPUTY_WORKER_SHUTDOWN_GRACE_SECONDS');
    expect(workerEnvName('maxCachedWorkflows')).toBe('DEPUTY_WORKER_MAX_CACHED_WORKFLOWS');
    expect(workerEnvName('stickyQueueScheduleToStartTimeoutSeconds')).toBe(
      'DEPUTY_WORKER_STICKY_QUEUE_SCHEDULE_TO_START_TIMEOUT_SECONDS',
    );
    expect(workerEnvName('workflowThreadPoolSize')).toBe('DEPUTY_WORKER_WORKFLOW_THREAD_POOL_SIZE');
    expect(WORKER_TUNING_KEYS).toHaveLength(7);
  });

  it('lets the environment win over the file, key by key', () => {
    const config = load('worker:\n  maxCachedWorkflows: 200\n  shutdownGraceSeconds: 5\n', {
      DEPUTY_WORKER_MAX_CACHED_WORKFLOWS: '50',
      DEPUTY_WORKER_MAX_CONCURRENT_ACTIVITY_TASK_EXECUTIONS: ' 20 ',
      DEPUTY_WORKER_SHUTDOWN_GRACE_SECONDS: '',
    });
    expect(config.worker).toMatchObject({
      maxCachedWorkflows: 50,
      maxConcurrentActivityTaskExecutions: 20,
      // Blank is unset: the file's value stays.
      shutdownGraceSeconds: 5,
    });
  });

  it('rejects a bad variable naming it and the key, not the value', () => {
    const message = configError(() =>
      load(undefined, { DEPUTY_WORKER_SHUTDOWN_GRACE_SECONDS: 'soon-ish' }),
    );
    expect(message).toContain('DEPUTY_WORKER_SHUTDOWN_GRACE_SECONDS');
    expect(message).toContain('worker.shutdownGraceSeconds');
    expect(message).not.toContain('soon-ish');
    expect(workerEnvOverrides({ DEPUTY_WORKER_MAX_CACHED_WORKFLOWS: '2.5' }).problems).toEqual([
      expect.stringContaining('DEPUTY_WORKER_MAX_CACHED_WORKFLOWS (worker.maxCachedWorkflows)'),
    ]);
    expect(workerEnvOverrides({ DEPUTY_WORKER_MAX_CACHED_WORKFLOWS: '-3' }).problems).toHaveLength(
      1,
    );
    expect(workerEnvOverrides({ DEPUTY_WORKER_MAX_CACHED_WORKFLOWS: 'Infinity' }).problems).toEqual(
      [expect.stringContaining('DEPUTY_WORKER_MAX_CACHED_WORKFLOWS')],
    );
  });

  it('rejects bad file values with the field path', () => {
    expect(configError(() => load('worker:\n  maxCachedWorkflows: -1\n'))).toContain(
      'worker.maxCachedWorkflows',
    );
    expect(configError(() => load('worker:\n  maxCachedWorkflows: 1\n'))).toMatch(
      /worker\.maxCachedWorkflows: must be 0 \(no cache\) or at least 2/,
    );
    expect(configError(() => load('worker:\n  shutdownGraceSeconds: later\n'))).toContain(
      'worker.shutdownGraceSeconds',
    );
    expect(configError(() => load('worker:\n  maxCachedWorkflow: 10\n'))).toContain('worker');
  });

  it('rejects more workflow task slots than cached workflows, unless the cache is off', () => {
    const message = configError(() =>
      load('worker:\n  maxCachedWorkflows: 10\n  maxConcurrentWorkflowTaskExecutions: 20\n'),
    );
    expect(message).toContain('worker.maxConcurrentWorkflowTaskExecutions');
    expect(message).toContain('worker.maxCachedWorkflows');
    expect(
      load('worker:\n  maxCachedWorkflows: 0\n  maxConcurrentWorkflowTaskExecutions: 20\n').worker
        .maxConcurrentWorkflowTaskExecutions,
    ).toBe(20);
  });

  it('becomes Worker.create options in milliseconds', () => {
    expect(
      workerTuningOptions({
        ...WORKER_TUNING_DEFAULTS,
        shutdownGraceSeconds: 1.5,
        stickyQueueScheduleToStartTimeoutSeconds: 4,
        workflowThreadPoolSize: 3,
      }),
    ).toEqual({
      maxCachedWorkflows: WORKER_TUNING_DEFAULTS.maxCachedWorkflows,
      maxConcurrentWorkflowTaskExecutions:
        WORKER_TUNING_DEFAULTS.maxConcurrentWorkflowTaskExecutions,
      workflowThreadPoolSize: 3,
      maxConcurrentActivityTaskExecutions:
        WORKER_TUNING_DEFAULTS.maxConcurrentActivityTaskExecutions,
      maxConcurrentLocalActivityExecutions:
        WORKER_TUNING_DEFAULTS.maxConcurrentLocalActivityExecutions,
      stickyQueueScheduleToStartTimeout: 4000,
      shutdownGraceTime: 1500,
    });
  });
});
