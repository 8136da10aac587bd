/**
 * A long delegation's event stream read after it continued as new, on the real dev server: a
 * scripted 300-round run hands over to a fresh run under the history limit, and a reader who
 * attaches afterwards from the beginning (the facade, and `GET /delegations/:id/events` over
 * HTTP in-process) gets every event from the first run's `started` on, numbered 1, 2, 3, ...
 * without a gap across the hand-over; one who resumes mid-chain gets what follows its point.
 * With the first run's history deleted, the stream says it starts mid-run and how many events
 * it leaves out, then goes on without a gap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { createAuth } from '../../../src/api/http/auth.js';
import { createDelegations } from '../../../src/temporal/delegations/facade.js';
import type { Delegations } from '../../../src/temporal/delegations/types.js';
import type { DelegationEvent, DelegationResult } from '../../../src/shared/delegation.js';
import { createHarness, eventually, type Harness } from '../support/harness.js';

const ROUNDS = 300;

const files: Record<string, string> = {
  'short.txt': 'lorem ipsum\n',
  '.subagents/agents/marathon.md': `---\nname: marathon\ndescription: reads a line a round\nmodel: scripted:scripts/marathon.yaml\napprovalMode: confirm\ntools: [read]\nmaxTurns: ${ROUNDS + 5}\n---\nRead.\n`,
  'scripts/marathon.yaml': `turns:\n${Array.from(
    { length: ROUNDS },
    (_, index) =>
      `  - text: lap ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: short.txt, limit: 1 } }]`,
  ).join('\n')}\n  - text: finished ${ROUNDS} laps\n`,
};

let harness: Harness;
let delegationId: string;
let workflowId: string;

beforeAll(async () => {
  harness = await createHarness(files);
  const handle = await harness.start('marathon', 'Read a line, 300 times');
  workflowId = handle.workflowId;
  delegationId = workflowId.split('/').pop()!;
  const result = (await handle.result()) as DelegationResult;
  expect(result).toMatchObject({ status: 'completed', text: `finished ${ROUNDS} laps` });
}, 300_000);
afterAll(() => harness?.close());

/** The run ids of the workflow, oldest first, with their statuses. */
async function runs(): Promise<{ runId: string; status: string }[]> {
  const found: { runId: string; status: string; start: number }[] = [];
  for await (const run of harness.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    found.push({ runId: run.runId, status: run.status.name, start: run.startTime.getTime() });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The `id:` and `event:` of each Server-Sent Event of a whole stream, in order. */
async function streamed(
  path: string,
  delegations: Delegations = harness.delegations,
): Promise<{ id: number; event: string }[]> {
  const app = createApp({
    delegations,
    config: harness.config,
    auth: createAuth({}),
    events: { pollMs: 50 },
  });
  const response = await app.request(path, { headers: { accept: 'text/event-stream' } });
  expect(response.status).toBe(200);
  // The stream ends after the `finished` event: the text is the whole stream.
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => /^id: /m.test(block))
    .map((block) => ({
      id: Number(/^id: (\d+)$/m.exec(block)?.[1]),
      event: /^event: (.+)$/m.exec(block)?.[1] ?? '',
    }));
}

const seqsOf = (events: { seq: number }[]) => events.map((event) => event.seq);
const oneToN = (n: number) => Array.from({ length: n }, (_, index) => index + 1);

describe('an event stream after continue-as-new', () => {
  it('replays every event from the first run on, numbered without a gap', async () => {
    const chain = await runs();
    expect(chain.length).toBeGreaterThanOrEqual(2);
    expect(chain[0]!.status).toBe('CONTINUED_AS_NEW');

    // Asked again while the earlier runs do not answer in time (a worker replaying them on a
    // loaded machine), as a reader is told to.
    const events = await eventually(
      () => harness.delegations.events(delegationId, 0),
      'the events of every run',
      60_000,
    );
    expect(seqsOf(events)).toEqual(oneToN(events.length));
    expect(events[0]).toMatchObject({ type: 'started', agent: 'marathon' });
    expect(events.at(-1)).toMatchObject({ type: 'finished' });
    const turns = events.filter(
      (event): event is Extract<DelegationEvent, { type: 'model-turn' }> =>
        event.type === 'model-turn',
    );
    expect(turns.map((turn) => turn.round)).toEqual(oneToN(ROUNDS + 1));
    expect(turns[0]!.text).toBe('lap 1');
    expect(events.some((event) => event.type === 'starts-mid-run')).toBe(false);

    // Over HTTP, as a client attaching with no Last-Event-ID sees it.
    const sse = await streamed(`/delegations/${delegationId}/events`);
    expect(sse.map((entry) => entry.id)).toEqual(seqsOf(events));
    expect(sse[0]!.event).toBe('started');
    expect(sse.at(-1)!.event).toBe('finished');

    // Resuming from a point inside the first run: what follows it, and nothing before.
    const resumed = await harness.delegations.events(delegationId, 10);
    expect(seqsOf(resumed)).toEqual(seqsOf(events).slice(10));
    const after = await streamed(`/delegations/${delegationId}/events?after=10`);
    expect(after.map((entry) => entry.id)).toEqual(seqsOf(events).slice(10));
  });

  it("says it starts mid-run when the first run's history is gone, and how much it leaves out", async () => {
    const all = await eventually(
      () => harness.delegations.events(delegationId, 0),
      'the events of every run',
      60_000,
    );
    const [first] = await runs();
    await harness.client.workflowService.deleteWorkflowExecution({
      namespace: 'default',
      workflowExecution: { workflowId, runId: first!.runId },
    });
    await eventually(
      async () => ((await runs()).some((run) => run.runId === first!.runId) ? undefined : true),
      'the first run deleted',
      30_000,
    );
    // A process that never read the first run (this one remembers what it read).
    const fresh = createDelegations(harness.client, {
      namespace: 'default',
      taskQueue: harness.taskQueue,
    });
    const events = await eventually(async () => {
      const read = await fresh.events(delegationId, 0);
      return read[0]?.type === 'starts-mid-run' ? read : undefined;
    }, 'a stream that starts mid-run');
    const [marker, ...rest] = events;
    expect(marker).toMatchObject({ type: 'starts-mid-run', eventsNotReplayed: marker!.seq });
    expect(marker!.seq).toBeGreaterThan(0);
    // It stands for events 1..seq; the rest follow it without a gap, as before the deletion.
    expect(seqsOf(rest)).toEqual(seqsOf(all).slice(marker!.seq));
    const sse = await streamed(`/delegations/${delegationId}/events`, fresh);
    expect(sse[0]).toEqual({ id: marker!.seq, event: 'starts-mid-run' });
    expect(sse.slice(1).map((entry) => entry.id)).toEqual(seqsOf(rest));
  });
});
