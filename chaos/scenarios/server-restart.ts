/**
 * Scenario 2: the Temporal dev server is killed (SIGTERM or SIGKILL, chosen by the seed) and
 * started again on the same SQLite file, again and again, while delegations are parked on
 * cards. Right before some kills an approval is sent, so decisions land around the crash too.
 *
 * Checked: after each restart every delegation is still there and still parked on a card the
 * API lists (0 lost cards); a decision the API accepted (200/202) before a kill was applied;
 * afterwards every card is still decidable: approving them all through the API completes
 * every delegation, with each approved effect on disk exactly once.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { http, sleep, startApi, startPool, startServer, type Api, type Site } from '../cluster.js';
import { awaitOutcome, eventsOf, stateOf, startWave } from '../outcomes.js';
import { TOLD } from './worker-kill.js';
import type { ScenarioResult } from '../report.js';
import type { Rng } from '../rng.js';

export interface ServerRestartOptions {
  restarts: number;
  parked: number;
}

/** Polls until `probe` answers, or gives up with `undefined`. */
async function until<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await sleep(250);
  }
  return undefined;
}

export async function serverRestart(
  site: Site,
  dataDir: string,
  bundle: string,
  rng: Rng,
  options: ServerRestartOptions,
): Promise<ScenarioResult> {
  const started = Date.now();
  const violations: string[] = [];
  const startRetries = { count: 0 };
  const server = await startServer(dataDir);
  const api: Api = await startApi(site, server.address, ['carded']);
  const pool = await startPool(site, 1, { address: server.address, bundle });
  const restartMs: number[] = [];
  const signals: Record<string, number> = { SIGTERM: 0, SIGKILL: 0 };
  let decisionsAcrossKills = 0;
  let cardsCarried = 0;
  let completed = 0;
  let toolsToldLost = 0;
  const tags = Array.from({ length: options.parked }, (_, i) => `r-${i}`);
  const ids = tags.map((tag) => `${site.name}-${tag}`);
  /** Card id a delegation must be parked on next (after each accepted approval it moves on). */
  const expected = new Map<string, string | 'done' | null>();
  const cardsOf = async (): Promise<Set<string> | undefined> => {
    const answer = await http(api, 'GET', '/sessions/chaos/cards', undefined, 15_000);
    if (answer.status !== 200) return undefined;
    return new Set((answer.body.cards as Array<{ id: string }>).map((c) => c.id));
  };
  try {
    const handles = await startWave(api.delegations, site, 'carded', tags, startRetries);
    for (const id of ids) expected.set(id, `${id}.1`);
    // Every card the suite expects pending is listed by the API: none lost.
    const allListed = async (when: string): Promise<void> => {
      const pending = [...expected.values()].filter((c): c is string => c !== null && c !== 'done');
      const listed = await until(async () => {
        const cards = await cardsOf();
        return cards && pending.every((c) => cards.has(c)) ? cards : undefined;
      }, 90_000);
      if (!listed) {
        const cards = (await cardsOf()) ?? new Set<string>();
        for (const card of pending.filter((c) => !cards.has(c))) {
          violations.push(
            `card ${card} LOST ${when}: not listed by GET /sessions/chaos/cards within 90 s`,
          );
        }
      }
      cardsCarried += pending.length;
    };
    await allListed('before the first restart');

    for (let r = 0; r < options.restarts; r++) {
      // Decisions right before the kill: they may land before, during or after it.
      const deciding = ids.filter(() => rng.chance(0.3));
      const answers = await Promise.all(
        deciding.map(async (id) => {
          const card = expected.get(id);
          if (typeof card !== 'string' || card === 'done') return null;
          return {
            id,
            card,
            answer: await http(api, 'POST', `/cards/${card}`, { decision: 'approve' }, 15_000),
          };
        }),
      );
      const signal = rng.chance(0.5) ? 'SIGKILL' : 'SIGTERM';
      signals[signal]!++;
      await server.kill(signal);
      await sleep(rng.int(0, 1_500));
      restartMs.push(await server.restart());
      for (const entry of answers) {
        if (entry === null) continue;
        decisionsAcrossKills++;
        if (entry.answer.status === 200 || entry.answer.status === 202) {
          // Accepted: it must be applied, so the delegation moves on to its next card.
          expected.set(entry.id, entry.card.endsWith('.1') ? `${entry.id}.2` : 'done');
        } else if (entry.answer.status === 409) {
          violations.push(
            `card ${entry.card}: its only approval answered 409 ${JSON.stringify(entry.answer.body)}`,
          );
        } else {
          // Unknown fate (the answer was lost): read it back below, as docs/http-api.md says.
          expected.set(entry.id, null);
        }
      }
      // A decision whose fate is open is read back from the delegation itself.
      for (const [id, card] of expected) {
        if (card !== null) continue;
        const state = await stateOf(api.client, `delegation/chaos/${id}`);
        expected.set(id, state.pendingCards[0]?.id ?? (state.result ? 'done' : null));
      }
      // Approved before the kill, so it must show as approved once the delegation has moved on.
      for (const entry of answers) {
        if (entry === null || (entry.answer.status !== 200 && entry.answer.status !== 202))
          continue;
        const applied = await until(async () => {
          const state = await stateOf(api.client, `delegation/chaos/${entry.id}`);
          return state.decidedCards.some(
            (c) => c.id === entry.card && c.state.status === 'approved',
          )
            ? true
            : undefined;
        }, 90_000);
        if (!applied) {
          violations.push(
            `card ${entry.card}: approval answered ${entry.answer.status} before a ${signal} of the server, not applied after the restart`,
          );
        }
      }
      await allListed(`after restart ${r + 1} (${signal})`);
    }

    // Every card still decidable: approve until each delegation completes.
    const deadline = Date.now() + 120_000;
    for (const [i, id] of ids.entries()) {
      while (Date.now() < deadline) {
        const state = await stateOf(api.client, handles[i]!.workflowId);
        if (state.result) break;
        const card = state.pendingCards[0];
        if (card) {
          const answer = await http(
            api,
            'POST',
            `/cards/${card.id}`,
            { decision: 'approve' },
            15_000,
          );
          if (![200, 202, 409, 503].includes(answer.status)) {
            violations.push(
              `card ${card.id}: approving after the restarts answered ${answer.status} ${JSON.stringify(answer.body)}`,
            );
          }
        }
        await sleep(300);
      }
      const outcome = await awaitOutcome(api.client, handles[i]!.workflowId, Date.now() + 30_000);
      if (outcome.kind !== 'finished' || outcome.result.status !== 'completed') {
        violations.push(
          `${id}: did not complete after approving every card: ${JSON.stringify(outcome)}`,
        );
        continue;
      }
      completed++;
      const c1 = await readFile(join(site.workspace, 'cards', `${tags[i]}.c1`), 'utf8').catch(
        () => '',
      );
      const c2 = await readFile(join(site.workspace, 'cards', `${tags[i]}.c2`), 'utf8').catch(
        () => '',
      );
      // At most once: a tool whose dispatch a server kill lost may not have run, and then the
      // model must have been told so; twice is always a violation.
      const told = (await eventsOf(api.client, handles[i]!.workflowId)).filter(
        (event) => event.type === 'tool-call' && TOLD.test(event.summary),
      ).length;
      for (const [effect, text, tool] of [
        [c1, `${tags[i]} c1\n`, 'write'],
        [c2, `${tags[i]} c2\n`, 'bash'],
      ] as const) {
        if (effect === text) continue;
        if (effect === '' && told > 0) {
          toolsToldLost++;
          continue;
        }
        violations.push(
          `${id}: approved ${tool} left ${JSON.stringify(effect)} (not exactly once; ${told} tool(s) told lost)`,
        );
      }
    }
  } finally {
    await pool.close();
    await api.close();
    await server.stop();
  }
  return {
    scenario: '2 server restarts',
    runs: options.parked,
    checked:
      '0 lost cards across restarts on the same SQLite file; accepted decisions applied; every card decidable after; effects at most once, a missing one told to the model',
    figures: {
      startsRetriedAfter503: startRetries.count,
      restarts: options.restarts,
      sigterm: signals.SIGTERM!,
      sigkill: signals.SIGKILL!,
      cardsCheckedAcrossRestarts: cardsCarried,
      decisionsSentBeforeKill: decisionsAcrossKills,
      workerDeaths: pool.deaths,
      restartAvgS: Number(
        (restartMs.reduce((a, b) => a + b, 0) / Math.max(restartMs.length, 1) / 1000).toFixed(1),
      ),
      restartMaxS: Number((Math.max(0, ...restartMs) / 1000).toFixed(1)),
      completed,
      toolsToldLost,
    },
    violations,
    durationMs: Date.now() - started,
  };
}
