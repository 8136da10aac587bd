/**
 * Scenario 4: two workers poll one task queue; one is SIGKILLed mid-run and never replaced. The
 * survivor must finish every delegation, with the same invariants as scenario 1 (no effect
 * twice, a lost tool told to the model, nothing lost).
 */
import { sleep, spawnWorker, startApi, type Site } from '../cluster.js';
import { awaitOutcome, mapLimit, startWave } from '../outcomes.js';
import type { ScenarioResult } from '../report.js';
import type { Rng } from '../rng.js';
import { checkStepper } from './worker-kill.js';

export interface TwoWorkersOptions {
  runs: number;
}

export async function twoWorkers(
  site: Site,
  address: string,
  bundle: string,
  rng: Rng,
  options: TwoWorkersOptions,
): Promise<ScenarioResult> {
  const started = Date.now();
  const violations: string[] = [];
  const startRetries = { count: 0 };
  const api = await startApi(site, address, ['stepper']);
  const workers = await Promise.all([
    spawnWorker(site, { address, bundle }),
    spawnWorker(site, { address, bundle }),
  ]);
  const victim = rng.int(0, 1);
  const survivor = workers[1 - victim]!;
  const killAfterMs = rng.int(1_000, 4_000);
  let toldLost = 0;
  let completed = 0;
  let survivorAlive = false;
  try {
    const tags = Array.from({ length: options.runs }, (_, i) => `t-${i}`);
    const handles = await startWave(api.delegations, site, 'stepper', tags, startRetries);
    await sleep(killAfterMs);
    await workers[victim]!.kill('SIGKILL');
    const deadline = Date.now() + 150_000;
    const outcomes = await Promise.all(
      handles.map((h) => awaitOutcome(api.client, h.workflowId, deadline)),
    );
    await mapLimit(tags, 8, async (tag, i) => {
      const seen = await checkStepper(
        site,
        api.client,
        handles[i]!.delegationId,
        handles[i]!.workflowId,
        tag,
        outcomes[i]!,
      );
      violations.push(...seen.violations);
      toldLost += seen.toldLost;
      if (seen.status === 'completed') completed++;
    });
    survivorAlive = survivor.child.exitCode === null && survivor.child.signalCode === null;
    if (!survivorAlive) violations.push(`the surviving worker ${survivor.pid} died too`);
  } finally {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    await api.close();
  }
  return {
    scenario: '4 two workers',
    runs: options.runs,
    checked: 'the survivor finishes every delegation; scenario 1 invariants',
    figures: {
      startsRetriedAfter503: startRetries.count,
      killedAfterS: killAfterMs / 1000,
      completed,
      toolsToldLost: toldLost,
      survivorAlive: survivorAlive ? 'yes' : 'no',
    },
    violations,
    durationMs: Date.now() - started,
  };
}
