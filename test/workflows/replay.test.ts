/**
 * Determinism guard: histories recorded from real runs (test/fixtures/histories, written by
 * `npm run record-histories`) must replay against today's workflow code. A change that breaks
 * this must be deliberate (patched, or the histories re-recorded with a note saying why).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { workflowMetricSinks } from '../../src/metrics/workflow-sinks.js';
import { WORKFLOWS_PATH } from '../../src/worker/worker.js';

const directory = join(PROJECT_ROOT, 'test/fixtures/histories');
const files = readdirSync(directory).filter((name) => name.endsWith('.json'));

describe('replay of recorded histories', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it('replays every recorded history without a determinism error', async () => {
    const histories = files.map((name) => ({
      workflowId: name.replace(/\.json$/, ''),
      history: historyFromJSON(JSON.parse(readFileSync(join(directory, name), 'utf8'))),
    }));
    const outcomes: Array<{ workflowId: string; error: unknown }> = [];
    for await (const outcome of Worker.runReplayHistories(
      // The workflows' metric sink, as the worker has it (a replay worker never calls it).
      { workflowsPath: WORKFLOWS_PATH, replayName: 'deputy-replay', sinks: workflowMetricSinks },
      (async function* () {
        yield* histories;
      })(),
    )) {
      outcomes.push({ workflowId: outcome.workflowId, error: outcome.error });
    }
    expect(outcomes.map((outcome) => outcome.workflowId).sort()).toEqual(
      histories.map((history) => history.workflowId).sort(),
    );
    for (const outcome of outcomes) {
      expect(outcome.error, outcome.workflowId).toBeUndefined();
    }
  }, 120_000);
});
