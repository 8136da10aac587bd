/**
 * Tool and model calls carry the capability snapshot by reference, not whole; reads
 * run as local activities, writes as ordinary ones; a snapshot lost from the blob store costs one
 * failed attempt, after which the run sends it whole and finishes; a read that outlasts the local
 * budget moves to the task queue, where stops and queries reach it. Checked in the history.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedAgent } from '../../src/shared/workflow-contract/activities.js';
import { decideCardUpdate, stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { Worker } from '@temporalio/worker';
import {
  createHarness,
  eventually,
  recordHistory,
  workflowBundle,
  type Harness,
} from './support/harness.js';
import { calibrate, timed } from '../support/calibration.js';

const agents = {
  '.subagents/agents/copyist.md':
    '---\nname: copyist\ndescription: reads a file and writes a copy (asks first)\nmodel: scripted:scripts/copyist.yaml\ntools: [read, write]\napprovalMode: confirm\n---\nCopy.\n',
  'scripts/copyist.yaml': `turns:
  - text: Reading.
    toolCalls: [{ name: read, arguments: { path: source.txt } }]
  - text: Copying.
    toolCalls: [{ name: write, arguments: { path: copy.txt, content: "copied\\n" } }]
  - text: Copied.
`,
  'source.txt': 'the original\n',
  // A pattern that takes seconds on each of these lines even in RE2's linear-time engine.
  '.subagents/agents/searcher.md':
    '---\nname: searcher\ndescription: runs one slow search\nmodel: scripted:scripts/searcher.yaml\ntools: [grep]\n---\nSearch.\n',
  'scripts/searcher.yaml': `turns:
  - text: Searching.
    toolCalls: [{ name: grep, arguments: { pattern: "(?i)\\\\pL{1000}\\\\pN{1000}", glob: "slow-*.txt" } }]
  - text: Searched.
`,
  ...Object.fromEntries(
    Array.from({ length: 8 }, (_, index) => [
      `slow-${index}.txt`,
      `${'é'.repeat(50_000)}${'x'.repeat(50_000)}\n`,
    ]),
  ),
};

type HistoryEvents = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>;

function decode(payload: { data?: Uint8Array | null } | null | undefined): unknown {
  return JSON.parse(Buffer.from(payload?.data ?? new Uint8Array()).toString('utf8'));
}

/** Every ordinary activity the run scheduled: its type and decoded input. */
function scheduled(events: HistoryEvents) {
  return events.flatMap((event) => {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (!attributes) return [];
    return [
      {
        type: attributes.activityType?.name ?? '',
        input: decode(attributes.input?.payloads?.[0]) as Record<string, unknown>,
      },
    ];
  });
}

/** How the run's ordinary runTool activities ended, event by event, in history order. */
function ordinaryRunToolEnds(events: HistoryEvents): string[] {
  const runTools = new Set(
    events
      .filter(
        (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool',
      )
      .map((event) => String(event.eventId)),
  );
  return events.flatMap((event) => {
    const ended = [
      ['cancel requested', event.activityTaskCancelRequestedEventAttributes],
      ['cancelled', event.activityTaskCanceledEventAttributes],
      ['completed', event.activityTaskCompletedEventAttributes],
      ['failed', event.activityTaskFailedEventAttributes],
      ['timed out', event.activityTaskTimedOutEventAttributes],
    ] as const;
    return ended.flatMap(([name, attributes]) =>
      attributes && runTools.has(String(attributes.scheduledEventId)) ? [name] : [],
    );
  });
}

/** The activity types that ran local (a `core_local_activity` marker each). */
function localActivityTypes(events: HistoryEvents): string[] {
  return events.flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') return [];
    return [
      (decode(marker.details?.data?.payloads?.[0]) as { activity_type: string }).activity_type,
    ];
  });
}

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness(agents);
});
afterAll(() => harness?.close());

async function approveEach(handle: WorkflowHandle): Promise<void> {
  const state = await eventually(async () => {
    const current = await handle.query(stateQuery);
    return current.pendingCards.length === 1 ? current : undefined;
  }, 'the write card');
  await handle.executeUpdate(decideCardUpdate, {
    args: [{ cardId: state.pendingCards[0]!.id, decision: 'approve' }],
  });
}

describe('the capability snapshot by reference', () => {
  it('resolveAgent records it once; calls name it; the read runs local, the write does not', async () => {
    const handle = await harness.start('copyist', 'Copy source.txt');
    await approveEach(handle);
    expect((await handle.result()).status).toBe('completed');
    expect(readFileSync(join(harness.workspace, 'copy.txt'), 'utf8')).toBe('copied\n');

    const events = (await handle.fetchHistory()).events ?? [];
    // resolveAgent is the first activity to complete.
    const completed = events.find((event) => event.activityTaskCompletedEventAttributes);
    const resolved = decode(
      completed?.activityTaskCompletedEventAttributes?.result?.payloads?.[0],
    ) as ResolvedAgent;
    expect(resolved.snapshot.agentName).toBe('copyist');
    const ref = resolved.snapshotRef!;
    expect(ref.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The blob is the snapshot history holds, byte for byte (so it is masked the same way).
    const blob = join(harness.config.dataDir, 'blobs', ref.sha256.slice(0, 2), `${ref.sha256}.txt`);
    expect(JSON.parse(readFileSync(blob, 'utf8'))).toEqual(resolved.snapshot);

    const calls = scheduled(events).filter((call) => call.type !== 'resolveAgent');
    expect(calls.map((call) => call.type)).toEqual([
      'callModel',
      'callModel',
      'runTool',
      'callModel',
    ]);
    for (const call of calls) {
      expect(call.input.snapshotRef).toEqual(ref);
      expect(call.input).not.toHaveProperty('snapshot');
      expect(call.input).not.toHaveProperty('system');
      expect(call.input).not.toHaveProperty('tools');
    }
    expect(localActivityTypes(events)).toEqual(['runTool']);
  });

  it('a snapshot lost from the store: one failed attempt, then the run sends it whole', async () => {
    const handle = await harness.start('copyist', 'Copy source.txt again');
    await eventually(
      async () => ((await handle.query(stateQuery)).pendingCards.length === 1 ? true : undefined),
      'the write card',
    );
    // A worker with a cold cache and a data directory without the blob (wiped, or not shared).
    await harness.stopWorker();
    await rm(join(harness.config.dataDir, 'blobs'), { recursive: true, force: true });
    await rm(join(harness.workspace, 'copy.txt'), { force: true });
    await harness.startWorker();
    await approveEach(handle);
    expect((await handle.result()).status).toBe('completed');

    const events = (await handle.fetchHistory()).events ?? [];
    const failures = events.flatMap((event) => {
      const failure = event.activityTaskFailedEventAttributes?.failure;
      return failure ? [failure] : [];
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.applicationFailureInfo?.type).toBe('SnapshotMissing');
    expect(failures[0]!.message).toMatch(/capability snapshot: blob [0-9a-f]{64} is missing/);
    const afterLoss = scheduled(events).slice(-3);
    expect(afterLoss.map((call) => call.type)).toEqual(['runTool', 'runTool', 'callModel']);
    expect(afterLoss[0]!.input).toHaveProperty('snapshotRef');
    // The retry and every later call carry the snapshot whole: nothing fails twice.
    expect(afterLoss[1]!.input).toHaveProperty('snapshot.agentName', 'copyist');
    expect(afterLoss[2]!.input).toHaveProperty('system');
    expect(existsSync(join(harness.workspace, 'copy.txt'))).toBe(true); // written once, after the loss
    // The failed attempt and the whole-snapshot retry replay as they ran.
    await Worker.runReplayHistory(
      { workflowBundle: await workflowBundle(), replayName: 'snapshot-missing' },
      await handle.fetchHistory(),
    );
  });
});

describe('reads as local activities', () => {
  it('a read past the local budget moves to the task queue, where a stop and a query reach it', async () => {
    const handle = await harness.start('searcher', 'Search the slow files');
    // Past the 3 s local budget: the search runs again as an ordinary activity.
    await eventually(
      async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        return scheduled(events).some((call) => call.type === 'runTool') ? true : undefined;
      },
      'the search as an ordinary activity',
      30_000,
    );
    const asked = await timed(() => handle.query(stateQuery));
    expect(asked.value.status).toBe('running');
    await handle.cancel();
    expect((await handle.result()).status).toBe('stopped');
    const history = await handle.fetchHistory();
    expect(localActivityTypes(history.events ?? [])).toEqual(['runTool']);
    // The stop reached the search: cancelled, not left to run to its end.
    expect(ordinaryRunToolEnds(history.events ?? [])).toEqual(['cancel requested', 'cancelled']);
    // A query waits for a workflow task in progress, which a read still running as a local
    // activity would hold for its whole 3 s budget. The baseline is the same query on the same
    // run once closed (a replay, more work than a plain answer); 10 of those, or 1.5 s, stays
    // short of that budget on a quiet machine and grows with the machine's load.
    const budget = await calibrate(
      'the same query on the closed run',
      () => handle.query(stateQuery),
      { factor: 10, floorMs: 1_500 },
    );
    budget.expectWithin(asked.ms, 'the query while the search ran');
    // The timed-out local read and its ordinary re-run replay as they ran.
    await Worker.runReplayHistory(
      { workflowBundle: await workflowBundle(), replayName: 'local-read-timeout' },
      history,
    );
    await recordHistory(handle, 'local-read-timeout');
  });
});
