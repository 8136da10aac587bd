/**
 * Scenario 5: a worker gets SIGTERM while tools run. The worker is the real `deputy worker`
 * command with DEPUTY_WORKER_SHUTDOWN_GRACE_SECONDS set (src/config/worker-tuning.ts, passed to
 * Temporal as shutdownGraceTime); each tool is a bash command shorter than the grace that
 * writes a line when it begins and one when it ends. Once every tool has begun, the worker is
 * sent SIGTERM; a fresh worker then finishes the delegations.
 *
 * Checked: the stopping worker exits within the grace (plus a margin); every tool shorter than
 * the grace finished (its end line is there) and its result was recorded once as a success;
 * nothing ran twice (one begin line each); every delegation completed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep, spawnWorker, startApi, type Site } from '../cluster.js';
import { awaitOutcome, eventsOf, startWave } from '../outcomes.js';
import type { ScenarioResult } from '../report.js';
import type { Rng } from '../rng.js';

export interface GracefulOptions {
  runs: number;
  /** How long each tool runs; the grace given is twice that plus 5 s. */
  toolSeconds: number;
}

export async function gracefulShutdown(
  site: Site,
  address: string,
  bundle: string,
  rng: Rng,
  options: GracefulOptions,
): Promise<ScenarioResult> {
  const started = Date.now();
  const violations: string[] = [];
  const startRetries = { count: 0 };
  const graceSeconds = options.toolSeconds * 2 + 5;
  const api = await startApi(site, address, ['sleeper']);
  const first = await spawnWorker(site, {
    address,
    bundle,
    cli: true,
    env: { DEPUTY_WORKER_SHUTDOWN_GRACE_SECONDS: String(graceSeconds) },
  });
  let second: Awaited<ReturnType<typeof spawnWorker>> | null = null;
  let exitMs = 0;
  let finishedInGrace = 0;
  let reRuns = 0;
  let exit = '';
  try {
    const tags = Array.from({ length: options.runs }, (_, i) => `g-${i}`);
    const handles = await startWave(api.delegations, site, 'sleeper', tags, startRetries);
    const lines = async (tag: string): Promise<string[]> =>
      (await readFile(join(site.workspace, 'slow', `${tag}.log`), 'utf8').catch(() => ''))
        .split('\n')
        .filter((l) => l !== '');
    // SIGTERM once every tool has begun, at a random moment of its first second.
    const waitUntil = Date.now() + 60_000;
    while (Date.now() < waitUntil) {
      const begun = await Promise.all(
        tags.map(async (t) => (await lines(t)).includes(`${t} begin`)),
      );
      if (begun.every(Boolean)) break;
      await sleep(100);
    }
    await sleep(rng.int(0, 1_000));
    const signalled = Date.now();
    const exited = await first.kill('SIGTERM');
    exitMs = Date.now() - signalled;
    exit = exited.signal ?? String(exited.code);
    if (exitMs > (graceSeconds + 10) * 1000) {
      violations.push(
        `the worker took ${exitMs} ms to stop after SIGTERM, grace was ${graceSeconds} s`,
      );
    }
    second = await spawnWorker(site, { address, bundle });
    const deadline = Date.now() + 120_000;
    for (const [i, tag] of tags.entries()) {
      const id = handles[i]!.delegationId;
      const outcome = await awaitOutcome(api.client, handles[i]!.workflowId, deadline);
      const seen = await lines(tag);
      const begins = seen.filter((l) => l === `${tag} begin`).length;
      const ends = seen.filter((l) => l === `${tag} end`).length;
      if (begins > 1) {
        reRuns++;
        violations.push(`${id}: the tool began ${begins} times (re-run after the graceful stop)`);
      }
      if (ends === 1) finishedInGrace++;
      else {
        violations.push(
          `${id}: a ${options.toolSeconds} s tool did not finish within a ${graceSeconds} s shutdown grace (end lines: ${ends})`,
        );
      }
      if (outcome.kind !== 'finished') {
        violations.push(`${id}: not finished (${outcome.kind}) after the graceful stop`);
        continue;
      }
      if (outcome.result.status !== 'completed') {
        violations.push(`${id}: ended ${outcome.result.status}: ${outcome.result.notice ?? ''}`);
      }
      const calls = (await eventsOf(api.client, handles[i]!.workflowId)).filter(
        (e) => e.type === 'tool-call',
      );
      if (calls.length !== 1)
        violations.push(`${id}: ${calls.length} tool results recorded, expected 1`);
      const summary = calls[0]?.type === 'tool-call' ? calls[0].summary : '';
      const succeeded = summary.includes('[exit code: 0]');
      if (ends === 1 && !succeeded) {
        violations.push(`${id}: the tool finished on disk but its recorded result is: ${summary}`);
      }
    }
  } finally {
    await first.kill('SIGKILL');
    await second?.kill('SIGKILL');
    await api.close();
  }
  return {
    scenario: '5 graceful SIGTERM',
    runs: options.runs,
    checked: `tools of ${options.toolSeconds} s finish within a ${graceSeconds} s grace and are recorded once; nothing re-runs`,
    figures: {
      startsRetriedAfter503: startRetries.count,
      graceS: graceSeconds,
      workerExitAfterSigtermS: Number((exitMs / 1000).toFixed(1)),
      workerExit: exit,
      finishedInGrace,
      reRuns,
    },
    violations,
    durationMs: Date.now() - started,
  };
}
