/**
 * Scenario 3: many concurrent delegations, each parked on up to two cards, decided through the
 * HTTP API at random: approve, deny, stop, two decisions on one card at once, a decision racing
 * a stop. Every delegation is started first (all of them open together), then a bounded number
 * of drivers decide their cards, so the machine is not drowned in polling.
 *
 * Checked: every delegation terminal; every card decided exactly once (one card-decided event,
 * none left pending); at most one decision accepted per card, and the card ends as it said; a
 * stopped delegation's undecided card is denied; each losing decision answered 409 `conflict`,
 * never a 500, another error or a hang (every request has a deadline); a denied call left no
 * effect on disk, an approved one of a completed delegation left it once.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';
import {
  http,
  sleep,
  startApi,
  startPool,
  type Api,
  type HttpAnswer,
  type Site,
} from '../cluster.js';
import { awaitOutcome, eventsOf, mapLimit, stateOf } from '../outcomes.js';
import type { ScenarioResult } from '../report.js';
import type { Rng } from '../rng.js';

export interface DecisionsOptions {
  runs: number;
  /** Share of cards that get a race (half two decisions at once, half a decision and a stop). */
  raceShare: number;
  /** How long after the last decision every delegation has to be terminal. */
  terminalTimeoutMs: number;
}

type Action = 'approve' | 'deny' | 'stop' | 'double' | 'double-same' | 'decide-vs-stop';
type Sent = { what: 'approve' | 'deny' | 'stop'; reason: string; answer: HttpAnswer };

interface CardRecord {
  cardId: string;
  action: Action;
  sent: Sent[];
}

const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Two identical decisions (same decision, reason and caller) racing: the API cannot tell them
 * apart (card-decision.ts sameDecision), so both may answer 200 for the one decision made.
 * Counted as a figure; the card must still be decided once and as they both said.
 */
const sameBothAccepted = { count: 0 };
/** Answers 503 to a decision or stop: Temporal did not answer the API within its deadline. */
const fateOpen = { count: 0 };
const SESSION = 'decide';

function chooseAction(rng: Rng, raceShare: number): Action {
  const x = rng.next();
  if (x < raceShare * 0.4) return 'double';
  if (x < raceShare * 0.6) return 'double-same';
  if (x < raceShare) return 'decide-vs-stop';
  const rest = (x - raceShare) / (1 - raceShare);
  return rest < 0.5 ? 'approve' : rest < 0.83 ? 'deny' : 'stop';
}

async function act(api: Api, id: string, card: string, action: Action, rng: Rng): Promise<Sent[]> {
  // Each decision has a reason of its own, as two people's would: the API can tell them apart.
  let n = 0;
  const decide = async (what: 'approve' | 'deny', same = false): Promise<Sent> => {
    const reason = same ? `chaos ${what}` : `chaos ${what} #${++n}`;
    return {
      what,
      reason,
      answer: await http(
        api,
        'POST',
        `/cards/${card}`,
        { decision: what, reason },
        REQUEST_TIMEOUT_MS,
      ),
    };
  };
  const stop = async (): Promise<Sent> => ({
    what: 'stop',
    reason: '',
    answer: await http(api, 'POST', `/delegations/${id}/stop`, undefined, REQUEST_TIMEOUT_MS),
  });
  const either = (): 'approve' | 'deny' => (rng.chance(0.5) ? 'approve' : 'deny');
  switch (action) {
    case 'approve':
    case 'deny':
      return [await decide(action)];
    case 'stop':
      return [await stop()];
    case 'double':
      return Promise.all([decide(either()), decide(either())]);
    case 'double-same': {
      // A double click: the same decision twice, indistinguishable.
      const what = either();
      return Promise.all([decide(what, true), decide(what, true)]);
    }
    case 'decide-vs-stop':
      return Promise.all([decide(either()), stop()]);
  }
}

/**
 * A 503 leaves a request's fate open (docs/http-api.md: read the card back before deciding
 * again). While no answer was definitive and the card is still pending, read it back and send
 * the same kind of request again, as a client following the documentation would.
 */
async function retryOpenFates(api: Api, id: string, card: string, sent: Sent[]): Promise<Sent[]> {
  const retries: Sent[] = [];
  const definitive = (s: Sent): boolean =>
    s.what === 'stop' ? s.answer.status === 200 : [200, 202, 409].includes(s.answer.status);
  for (let attempt = 1; attempt <= 10; attempt++) {
    if ([...sent, ...retries].some(definitive)) return retries;
    await sleep(1_000);
    const state = await http(api, 'GET', `/delegations/${id}`, undefined, REQUEST_TIMEOUT_MS);
    if (state.status !== 200) continue;
    const body = state.body as unknown as DelegationState;
    // Settled only when the run itself says so: an answer built from visibility (query timed
    // out) has no decided cards and a memo that may lag, so it proves nothing either way.
    if (body.result !== null || body.decidedCards.some((c) => c.id === card)) return retries;
    if (!body.pendingCards.some((c) => c.id === card) && body.maxTurns !== 0) return retries;
    const first = sent[0]!;
    const reason = `chaos ${first.what} retry #${attempt}`;
    const answer =
      first.what === 'stop'
        ? await http(api, 'POST', `/delegations/${id}/stop`, undefined, REQUEST_TIMEOUT_MS)
        : await http(
            api,
            'POST',
            `/cards/${card}`,
            { decision: first.what, reason },
            REQUEST_TIMEOUT_MS,
          );
    retries.push({ what: first.what, reason: first.what === 'stop' ? '' : reason, answer });
  }
  return retries;
}

/** The state as the API answers it (GET /delegations/:id), until `ready` says it has moved on. */
async function waitForState(
  api: Api,
  id: string,
  ready: (state: DelegationState) => boolean,
  ms: number,
): Promise<DelegationState | null> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const answer = await http(api, 'GET', `/delegations/${id}`, undefined, REQUEST_TIMEOUT_MS);
    if (answer.status === 200) {
      const state = answer.body as unknown as DelegationState;
      if (ready(state)) return state;
    }
    await sleep(400);
  }
  return null;
}

export async function decisions(
  site: Site,
  address: string,
  bundle: string,
  rng: Rng,
  options: DecisionsOptions,
): Promise<ScenarioResult> {
  const started = Date.now();
  const violations: string[] = [];
  sameBothAccepted.count = 0;
  fateOpen.count = 0;
  const api = await startApi(site, address, ['carded']);
  const pool = await startPool(site, 2, { address, bundle });
  const tags = Array.from({ length: options.runs }, (_, i) => `c-${i}`);
  const ids = tags.map((tag) => `${site.name}-${tag}`);
  const cards = new Map<string, CardRecord[]>(ids.map((id) => [id, []]));
  const answerMs: number[] = [];
  const byStatus: Record<string, number> = {};
  let hangs = 0;
  let stuck = 0;
  let retried = 0;
  const count = (a: HttpAnswer): void => {
    answerMs.push(a.ms);
    byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    if (a.hung) hangs++;
  };
  const outcomes: Record<string, number> = {};
  try {
    // All of them open at once.
    await mapLimit(ids, 20, async (id, i) => {
      const body = { agent: 'carded', task: tags[i], session: SESSION, delegationId: id };
      // A 503 leaves the start's fate open: the id is fixed, so send it again; 409 then says
      // the first one did start it.
      for (let attempt = 0; attempt < 20; attempt++) {
        const answer = await http(api, 'POST', '/delegations', body);
        count(answer);
        if (answer.status === 201 || (attempt > 0 && answer.status === 409)) return;
        if (answer.status !== 503) {
          violations.push(`${id}: start answered ${answer.status} ${JSON.stringify(answer.body)}`);
          return;
        }
        await sleep(1_000);
      }
      violations.push(`${id}: start answered 503 twenty times`);
    });
    const drivers = Math.min(50, ids.length);
    await mapLimit(ids, drivers, async (id) => {
      const cardRng = rng.fork(id);
      for (const sequence of [1, 2]) {
        const cardId = `${id}.${sequence}`;
        const state = await waitForState(
          api,
          id,
          (s) => s.pendingCards.some((c) => c.id === cardId) || s.result !== null,
          180_000,
        );
        if (state === null) {
          stuck++;
          violations.push(
            `${id}: card ${cardId} never opened and the delegation did not finish in 180 s`,
          );
          return;
        }
        if (state.result !== null) return;
        const action = chooseAction(cardRng, options.raceShare);
        const sent = await act(api, id, cardId, action, cardRng);
        sent.push(...(await retryOpenFates(api, id, cardId, sent)));
        sent.forEach((s) => count(s.answer));
        retried +=
          sent.length -
          (action === 'double' || action === 'double-same' || action === 'decide-vs-stop' ? 2 : 1);
        cards.get(id)!.push({ cardId, action, sent });
        if (sent.some((s) => s.what === 'stop')) return;
      }
    });

    // Every delegation terminal, then every invariant, one delegation at a time per lane.
    const deadline = Date.now() + options.terminalTimeoutMs;
    await mapLimit(ids, 10, async (id) => {
      const workflowId = `delegation/${SESSION}/${id}`;
      const outcome = await awaitOutcome(api.client, workflowId, deadline);
      const status = outcome.kind === 'finished' ? outcome.result.status : outcome.kind;
      outcomes[status] = (outcomes[status] ?? 0) + 1;
      if (outcome.kind !== 'finished') {
        // What it waits on, and what the suite sent it: enough to tell a lost decision apart.
        const now = await http(api, 'GET', `/delegations/${id}`, undefined, REQUEST_TIMEOUT_MS);
        const pending = (now.body.pendingCards as ApprovalCard[] | undefined)?.map((c) => c.id);
        const sent = cards
          .get(id)!
          .map((r) => `${r.cardId} ${r.action}: ${r.sent.map(describeAnswer).join(' | ')}`);
        violations.push(
          `${id}: not terminal after the deadline (${JSON.stringify(outcome)}), status ${String(now.body.status)}, pending cards ${JSON.stringify(pending)}; sent: ${sent.join(' || ') || 'nothing'}`,
        );
        return;
      }
      const records = cards.get(id)!;
      const stopSent = records.some((r) => r.sent.some((s) => s.what === 'stop'));
      if (outcome.result.status === 'stopped' && !stopSent)
        violations.push(`${id}: stopped, but nobody stopped it`);
      if (outcome.result.status === 'failed')
        violations.push(`${id}: failed: ${outcome.result.notice}`);
      let state: DelegationState;
      let events: Awaited<ReturnType<typeof eventsOf>>;
      try {
        [state, events] = await Promise.all([
          stateOf(api.client, workflowId),
          eventsOf(api.client, workflowId),
        ]);
      } catch (error) {
        violations.push(
          `${id}: ended ${outcome.result.status}, but its state cannot be read: ${(error as Error).message}`,
        );
        return;
      }
      if (state.pendingCards.length > 0) {
        violations.push(
          `${id}: finished with pending cards ${state.pendingCards.map((c) => c.id).join(', ')}`,
        );
      }
      const opened = events
        .filter((e) => e.type === 'card-opened')
        .map((e) => (e.type === 'card-opened' ? e.card.id : ''));
      for (const cardId of opened) {
        const decided = events.filter(
          (e) => e.type === 'card-decided' && e.card.id === cardId,
        ).length;
        if (decided !== 1)
          violations.push(`card ${cardId}: decided ${decided} times (card-decided events)`);
      }
      for (const record of records) {
        checkCard(id, record, state, outcome.result.status, violations);
        await checkEffect(site, id, record, state, outcome.result.status, violations);
      }
    });
  } finally {
    await pool.close();
    await api.close();
  }
  const sorted = [...answerMs].sort((a, b) => a - b);
  const actions: Record<string, number> = {};
  for (const record of [...cards.values()].flat())
    actions[record.action] = (actions[record.action] ?? 0) + 1;
  for (const error of api.internalErrors.slice(0, 20))
    violations.push(`API internal error: ${error}`);
  return {
    scenario: '3 racing decisions',
    runs: options.runs,
    checked:
      'all terminal; each card decided once; one accepted decision per card; stopped => denied; losers 409, no 500, no hang',
    figures: {
      cards: [...cards.values()].flat().length,
      ...Object.fromEntries(Object.entries(actions).map(([k, v]) => [`act_${k}`, v])),
      ...Object.fromEntries(Object.entries(byStatus).map(([k, v]) => [`http_${k}`, v])),
      ...Object.fromEntries(Object.entries(outcomes).map(([k, v]) => [`ended_${k}`, v])),
      hangs,
      stuck,
      identicalRaceBothAccepted: sameBothAccepted.count,
      answers503: fateOpen.count,
      retriesAfter503: retried,
      internalErrors: api.internalErrors.length,
      answerP50ms: sorted[Math.floor(sorted.length / 2)] ?? 0,
      answerMaxMs: sorted[sorted.length - 1] ?? 0,
    },
    violations,
    durationMs: Date.now() - started,
  };
}

function describeAnswer(s: Sent): string {
  const { status, hung, body } = s.answer;
  if (hung) return `${s.what} -> HANG`;
  // A decided card: how it was decided; anything else: its message.
  const state = (body.state ?? (body.card as Record<string, unknown> | undefined)?.state) as
    Record<string, unknown> | undefined;
  const detail =
    status === 200 && state
      ? `card ${String(state.status)} (reason ${JSON.stringify(state.reason)})`
      : String(body.message ?? body.error ?? JSON.stringify(body)).slice(0, 240);
  return `${s.what} (${s.reason}) -> ${status} ${detail}`;
}

/** One card's invariants against the answers the suite got and the delegation's final state. */
function checkCard(
  id: string,
  record: CardRecord,
  state: DelegationState,
  ended: string,
  violations: string[],
): void {
  const where = `${id} card ${record.cardId} (${record.action})`;
  const final: ApprovalCard | undefined = state.decidedCards.find((c) => c.id === record.cardId);
  if (!final || final.state.status === 'pending') {
    violations.push(`${where}: not decided at the end`);
    return;
  }
  const decided = final.state;
  for (const sent of record.sent) {
    if (sent.answer.hung)
      violations.push(`${where}: HANG, no answer within ${REQUEST_TIMEOUT_MS} ms to ${sent.what}`);
    if (sent.answer.status >= 500 && sent.answer.status !== 503) {
      violations.push(`${where}: ${describeAnswer(sent)}`);
    }
    if (sent.answer.status === 503) fateOpen.count++;
  }
  const stop = record.sent.find((s) => s.what === 'stop');
  if (
    stop &&
    stop.answer.status !== 503 &&
    !(
      stop.answer.status === 200 &&
      (stop.answer.body.stopped === true || stop.answer.body.alreadyFinished === true)
    )
  ) {
    violations.push(`${where}: stop answered ${describeAnswer(stop)}`);
  }
  // Every decision carries a reason of its own, so the card's final reason names the one
  // that was applied; none of them: the stop settled it.
  const decisions = record.sent.filter((s) => s.what !== 'stop');
  const kindOf = (what: string): string => (what === 'approve' ? 'approved' : 'denied');
  const applied = decisions.filter(
    (s) => s.reason === decided.reason && kindOf(s.what) === decided.status,
  );
  const identical = record.action === 'double-same';
  const accepted = decisions.filter((s) => s.answer.status === 200 || s.answer.status === 202);
  if (accepted.length > 1 && identical) sameBothAccepted.count++;
  if (accepted.length > 1 && !identical) {
    violations.push(
      `${where}: ${accepted.length} decisions accepted: ${accepted.map(describeAnswer).join(' | ')}`,
    );
  }
  const all = record.sent.map(describeAnswer).join(' | ');
  // Two identical decisions: either may be the one applied; one of them must not be a 409.
  if (identical && decisions.every((d) => d.answer.status === 409)) {
    violations.push(
      `${where}: both identical decisions refused, yet the card was ${decided.status}: ${all}`,
    );
  }
  for (const sent of identical ? [] : decisions) {
    const won = applied.includes(sent);
    const { status } = sent.answer;
    // The applied one: 200, 202, or 503 (its fate was open, docs/http-api.md); never 409.
    if (won && status === 409) {
      violations.push(`${where}: the decision that was applied was answered 409 conflict: ${all}`);
    }
    // A loser: 409 conflict; 202 recorded only if a stop settled the card first; or 503.
    if (!won && status === 200) {
      violations.push(`${where}: a decision that was not applied was answered 200: ${all}`);
    }
    if (!won && status === 202 && !stop) {
      violations.push(
        `${where}: a decision recorded (202) was never applied, and no stop came: ${all}`,
      );
    }
    if (!won && status === 409 && sent.answer.body.error !== 'conflict') {
      violations.push(`${where}: 409 without the conflict code: ${all}`);
    }
    if (![200, 202, 409, 503].includes(status) && !sent.answer.hung && status < 500) {
      violations.push(`${where}: a decision answered ${status}, not a documented answer: ${all}`);
    }
  }
  if (applied.length === 0) {
    if (!stop)
      violations.push(
        `${where}: decided ${final.state.status} (reason ${JSON.stringify(final.state.reason)}) by nobody the suite sent: ${all}`,
      );
    else if (final.state.status !== 'denied')
      violations.push(`${where}: settled by the stop, yet ${final.state.status}`);
    else if (ended !== 'stopped')
      violations.push(`${where}: settled by the stop but the delegation ended ${ended}`);
  }
}

/** A denied call must leave nothing on disk; an approved one of a completed run, its effect once. */
async function checkEffect(
  site: Site,
  id: string,
  record: CardRecord,
  state: DelegationState,
  ended: string,
  violations: string[],
): Promise<void> {
  const final = state.decidedCards.find((c) => c.id === record.cardId);
  if (!final) return;
  const tag = id.slice(id.indexOf('-') + 1);
  const file = record.cardId.endsWith('.1') ? `${tag}.c1` : `${tag}.c2`;
  const text = await readFile(join(site.workspace, 'cards', file), 'utf8').catch(() => null);
  const where = `${id} card ${record.cardId}`;
  if (final.state.status === 'denied' && text !== null) {
    violations.push(`${where}: denied, yet cards/${file} exists: ${JSON.stringify(text)}`);
  }
  if (final.state.status === 'approved' && ended === 'completed') {
    const line = record.cardId.endsWith('.1') ? `${tag} c1\n` : `${tag} c2\n`;
    if (text !== line)
      violations.push(
        `${where}: approved, cards/${file} holds ${JSON.stringify(text)} (want it once)`,
      );
  }
}
