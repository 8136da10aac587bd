/**
 * The `start-and-approve` bench: one delegation that parks on an approval card, approved, run to
 * completion. Through the API (path A: `POST /delegations?wait=true` answers 202 with the card,
 * `POST /cards/:id` approves, `GET /delegations/:id` until it has a result, real HTTP on loopback
 * via startApiServer) against the same Delegations facade calls without HTTP (path B: `start`,
 * `settle` until parked (what the wait does inside the API), `decide`, `get` until it has a
 * result). One dev server, one worker, one facade serve both; runs alternate. Target: p50 of A at
 * most 1.1x p50 of B.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ANONYMOUS_CALLER } from '../src/shared/caller.js';
import type { ApprovalCard, DelegationState } from '../src/shared/delegation.js';
import { isRecorded } from '../src/temporal/delegations/facade.js';
import { APPROVER, startApproverRig } from './approver-rig.js';
import {
  alternate,
  median,
  msAgainst,
  percentile,
  type BenchReport,
  type BenchRow,
} from './stats.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 30);
const WARMUP = 3;
/** Milliseconds between looks, for the facade's settle and decide waits and both final polls. */
const POLL_MS = 25;
const SESSION = 'bench';
const TARGET = 1.1;

interface Phases {
  /** Start until parked on the card, card in hand. */
  parked: number;
  /** The approval, until the facade says a worker applied it. */
  decided: number;
  /** From there until the delegation's result is seen. */
  finished: number;
  total: number;
}

function expect(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`start-and-approve: ${what}`);
}

export async function benchStartAndApprove(): Promise<BenchReport> {
  const rig = await startApproverRig('approve', { pollMs: { decide: POLL_MS, settle: POLL_MS } });
  const { api, delegations } = rig;
  try {
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${api.url}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    let runs = 0;
    const viaApi = async (): Promise<Phases> => {
      const task = `api-${++runs}`;
      const started = performance.now();
      const parked = await call('POST', '/delegations?wait=true', {
        agent: APPROVER,
        task,
        session: SESSION,
      });
      const state = parked.body.state as DelegationState | undefined;
      const card = state?.pendingCards[0];
      expect(parked.status === 202 && parked.body.status === 'parked', 'API did not park');
      expect(card?.tool === 'write', 'API parked without the write card');
      const atCard = performance.now();
      const decided = await call('POST', `/cards/${card.id}`, { decision: 'approve' });
      expect(decided.status === 200, `approving answered ${decided.status}`);
      const atDecision = performance.now();
      const id = parked.body.delegationId as string;
      for (;;) {
        const now = await call('GET', `/delegations/${id}`);
        const result = (now.body as unknown as DelegationState).result;
        if (result !== null) {
          expect(result.status === 'completed', `API run ended ${result.status}`);
          break;
        }
        await sleep(POLL_MS);
      }
      const done = performance.now();
      return phases(started, atCard, atDecision, done);
    };

    const direct = async (): Promise<Phases> => {
      const task = `direct-${++runs}`;
      const started = performance.now();
      const { delegationId } = await delegations.start({
        agent: APPROVER,
        task,
        session: SESSION,
        caller: ANONYMOUS_CALLER,
        options: {},
      });
      const settled = await delegations.settle(delegationId);
      const card: ApprovalCard | undefined =
        settled.status === 'parked' ? settled.state.pendingCards[0] : undefined;
      expect(card?.tool === 'write', 'the facade did not park on the write card');
      const atCard = performance.now();
      const outcome = await delegations.decide(card.id, { decision: 'approve', decidedBy: null });
      expect(!isRecorded(outcome), 'the decision was only recorded');
      const atDecision = performance.now();
      for (;;) {
        const { result } = await delegations.get(delegationId);
        if (result !== null) {
          expect(result.status === 'completed', `direct run ended ${result.status}`);
          break;
        }
        await sleep(POLL_MS);
      }
      const done = performance.now();
      return phases(started, atCard, atDecision, done);
    };

    for (let index = 0; index < WARMUP; index++) {
      await viaApi();
      await direct();
    }
    const apiRuns: Phases[] = [];
    const directRuns: Phases[] = [];
    await alternate(PAIRS, [
      async () => apiRuns.push(await viaApi()),
      async () => directRuns.push(await direct()),
    ]);

    const compare = (
      metric: string,
      key: keyof Phases,
      of: (values: number[]) => number,
      target?: string,
    ): BenchRow =>
      msAgainst(
        metric,
        apiRuns.map((run) => run[key]),
        directRuns.map((run) => run[key]),
        of,
        target,
      );
    const p90 = (values: number[]) => percentile(values, 90);
    return {
      name: `start, park on a card, approve, finish: API over HTTP vs the facade directly (${PAIRS} alternating pairs, polls every ${POLL_MS} ms)`,
      rows: [
        compare('total p50, API vs facade', 'total', median, `<= ${TARGET}`),
        compare('total p90, API vs facade', 'total', p90),
        compare('  start to parked on the card p50', 'parked', median),
        compare('  approve until applied p50', 'decided', median),
        compare('  approved to result seen p50', 'finished', median),
      ],
      notes: [
        'API: POST /delegations?wait=true (202 with the card), POST /cards/:id, GET /delegations/:id until a result; real HTTP on loopback',
        'facade: start, settle until parked, decide, get until a result; one dev server, worker and facade serve both',
      ],
    };
  } finally {
    await rig.stop();
  }
}

function phases(started: number, atCard: number, atDecision: number, done: number): Phases {
  return {
    parked: atCard - started,
    decided: atDecision - atCard,
    finished: done - atDecision,
    total: done - started,
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { installQuietRuntime } = await import('./quiet-runtime.js');
  installQuietRuntime();
  const { printReports } = await import('./report.js');
  printReports([await benchStartAndApprove()], 'start-and-approve');
}
