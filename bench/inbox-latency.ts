/**
 * The `inbox` bench: how soon the approvals inbox (`GET /cards/events`, what the web console
 * follows) shows a card and its end, against the API's own answers in the same run: a card-opened
 * event vs the 202 of `POST /delegations?wait=true` that carries the card, and a card-closed event
 * vs the 200 of `POST /cards/:id` that says the decision was applied. One stream stays open for the
 * whole run, as a console tab would; the delegations run one after another on one dev server and
 * worker, the API on real HTTP on loopback. The stream polls every POLL_MS (the default 300 ms).
 * Target: a card decided elsewhere leaves the inbox within a second, p90.
 */
import { createParser } from 'eventsource-parser';
import type { ApprovalCard } from '../src/shared/delegation.js';
import { APPROVER, startApproverRig } from './approver-rig.js';
import { median, msAgainst, percentile, type BenchReport, type BenchRow } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
const POLL_MS = 300;
const SESSION = 'bench-inbox';
const TARGET_CLOSED_MS = 1000;

interface Run {
  /** Start sent until the card-opened event / the 202 with the card. */
  openedEvent: number;
  openedAnswer: number;
  /** Decision sent until the card-closed event / the 200 that it was applied. */
  closedEvent: number;
  closedAnswer: number;
}

function expect(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`inbox-latency: ${what}`);
}

export async function benchInboxLatency(): Promise<BenchReport> {
  const rig = await startApproverRig('inbox', { events: { pollMs: POLL_MS } });
  const { api } = rig;
  const stream = new AbortController();
  try {
    // The inbox: when each card was first seen opened, and closed.
    const openedAt = new Map<string, { at: number; card: ApprovalCard }>();
    const closedAt = new Map<string, number>();
    const waiters = new Set<() => void>();
    const response = await fetch(`${api.url}/cards/events?session=${SESSION}`, {
      signal: stream.signal,
    });
    expect(response.status === 200, `the stream answered ${response.status}`);
    void followEvents(response, (name, data) => {
      const now = performance.now();
      if (name === 'card-opened') {
        const card = (data as { card: ApprovalCard }).card;
        if (!openedAt.has(card.delegationId)) openedAt.set(card.delegationId, { at: now, card });
      } else if (name === 'card-closed') {
        const { delegationId } = data as { delegationId: string };
        if (!closedAt.has(delegationId)) closedAt.set(delegationId, now);
      }
      for (const wake of waiters) wake();
    }).catch(() => undefined);
    const until = async (check: () => boolean, what: string): Promise<void> => {
      const deadline = performance.now() + 30_000;
      while (!check()) {
        expect(performance.now() < deadline, `no ${what} within 30 s`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 50);
        });
      }
    };

    const post = async (path: string, body: unknown) => {
      const answer = await fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };

    let count = 0;
    const once = async (): Promise<Run> => {
      const started = performance.now();
      const parked = await post('/delegations?wait=true', {
        agent: APPROVER,
        task: `inbox-${++count}`,
        session: SESSION,
      });
      const answeredOpen = performance.now();
      expect(parked.status === 202, `start answered ${parked.status}`);
      const id = parked.body.delegationId as string;
      await until(() => openedAt.has(id), 'card-opened event');
      const card = openedAt.get(id)!.card;
      const decided = performance.now();
      const decision = await post(`/cards/${card.id}`, { decision: 'approve' });
      const answeredClose = performance.now();
      expect(decision.status === 200, `approving answered ${decision.status}`);
      await until(() => closedAt.has(id), 'card-closed event');
      return {
        openedEvent: openedAt.get(id)!.at - started,
        openedAnswer: answeredOpen - started,
        closedEvent: closedAt.get(id)! - decided,
        closedAnswer: answeredClose - decided,
      };
    };

    for (let index = 0; index < WARMUP; index++) await once();
    const runs: Run[] = [];
    for (let index = 0; index < RUNS; index++) runs.push(await once());

    const row = (
      metric: string,
      key: keyof Run,
      baselineKey: keyof Run,
      of: (values: number[]) => number,
    ): BenchRow =>
      msAgainst(
        metric,
        runs.map((run) => run[key]),
        runs.map((run) => run[baselineKey]),
        of,
      );
    const p90 = (values: number[]) => percentile(values, 90);
    const closedP90 = p90(runs.map((run) => run.closedEvent));
    return {
      name: `approvals inbox: /cards/events vs the API's own answers (${RUNS} delegations, stream polls every ${POLL_MS} ms)`,
      rows: [
        row(
          'card-closed after the decision p50, vs POST /cards answer',
          'closedEvent',
          'closedAnswer',
          median,
        ),
        row(
          'card-closed after the decision p90, vs POST /cards answer',
          'closedEvent',
          'closedAnswer',
          p90,
        ),
        {
          metric: 'card-closed after the decision p90 (absolute)',
          value: closedP90,
          unit: 'ms',
          target: `<= ${TARGET_CLOSED_MS}`,
        },
        row(
          'card-opened after the start p50, vs the 202 with the card',
          'openedEvent',
          'openedAnswer',
          median,
        ),
        row(
          'card-opened after the start p90, vs the 202 with the card',
          'openedEvent',
          'openedAnswer',
          p90,
        ),
      ],
      notes: [
        'a ratio below 1: the stream told of the card before the API answered the call that caused it (the answer waits for the worker to apply the decision, or for the park)',
        'one stream open for the whole run, as one console tab; real HTTP on loopback; one dev server and worker',
      ],
    };
  } finally {
    stream.abort();
    await rig.stop();
  }
}

/** Server-Sent Events from a fetch response: each event's name and parsed data. */
async function followEvents(
  response: Response,
  onEvent: (name: string, data: unknown) => void,
): Promise<void> {
  const parser = createParser({
    onEvent: (message) => onEvent(message.event ?? 'message', JSON.parse(message.data)),
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { installQuietRuntime } = await import('./quiet-runtime.js');
  installQuietRuntime();
  const { printReports } = await import('./report.js');
  printReports([await benchInboxLatency()], 'inbox-latency');
}
