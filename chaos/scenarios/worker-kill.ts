/**
 * Scenario 1: workers SIGKILLed at random points of delegations that read, write, edit and run
 * bash. Two ways to kill: a bash step of a chosen delegation `kill -9`s its own worker right
 * after its side effect (between the effect and its completion being recorded), and the suite
 * SIGKILLs a random worker at a random moment. Delegations run in waves, all in flight at once:
 * an at-most-once tool lost with its worker is only noticed at its 30 s heartbeat timeout.
 *
 * Checked: no delegation lost; no write/edit/bash effect on disk twice; a tool that reported
 * success left its effect; every delegation ends completed (or failed with a notice), and a
 * tool whose worker died is reported to the model as possibly started and not retried.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { effectLine, KILL_STEPS, STEPPER_STEPS } from '../agents.js';
import { sleep, startApi, startPool, type Site } from '../cluster.js';
import { awaitOutcome, eventsOf, mapLimit, type Outcome, startWave } from '../outcomes.js';
import type { ScenarioResult } from '../report.js';
import type { Rng } from '../rng.js';

export interface WorkerKillOptions {
  runs: number;
  /** Delegations per wave, all started together. */
  wave: number;
  workers: number;
  /** Per wave: bash steps planted to kill their own worker. */
  plantedKills: number;
  /** Per wave: SIGKILLs from the suite at random moments of the first `killWindowMs`. */
  timedKills: number;
  killWindowMs: number;
  /** How long a wave may take to finish everything. */
  waveTimeoutMs: number;
}

/** What the model reads when an at-most-once tool's worker or dispatch was lost. */
export const TOLD = /may have started.*not retried/;
const AT_MOST_ONCE = new Set(['write', 'edit', 'bash']);

export async function workerKill(
  site: Site,
  address: string,
  bundle: string,
  rng: Rng,
  options: WorkerKillOptions,
): Promise<ScenarioResult> {
  const started = Date.now();
  const violations: string[] = [];
  const startRetries = { count: 0 };
  const api = await startApi(site, address, ['stepper']);
  const pool = await startPool(site, options.workers, { address, bundle });
  let planted = 0;
  let plantedFired = 0;
  let timed = 0;
  let toldLost = 0;
  let toolErrors = 0;
  let effectsCounted = 0;
  let errorSample: string | undefined;
  let finishedStatus: Record<string, number> = {};
  const waveMs: number[] = [];
  try {
    const waves = Math.ceil(options.runs / options.wave);
    for (let w = 0; w < waves; w++) {
      const waveStarted = Date.now();
      const count = Math.min(options.wave, options.runs - w * options.wave);
      const tags = Array.from({ length: count }, (_, i) => `k${w}-${i}`);
      // Which delegations kill their worker, and at which bash step: from the seed.
      const plants = new Map<string, number>();
      while (plants.size < Math.min(options.plantedKills, count)) {
        plants.set(rng.pick(tags), rng.pick(KILL_STEPS));
      }
      for (const [tag, step] of plants) {
        await writeFile(join(site.workspace, 'kill', `${tag}.s${step}`), 'kill\n');
      }
      planted += plants.size;
      const killTimes = Array.from({ length: options.timedKills }, () =>
        rng.int(500, options.killWindowMs),
      ).sort((a, b) => a - b);
      const killTargets = killTimes.map(() => rng.int(0, 1000));

      const handles = await startWave(api.delegations, site, 'stepper', tags, startRetries);
      const kills = (async () => {
        const t0 = Date.now();
        for (let i = 0; i < killTimes.length; i++) {
          await sleep(Math.max(0, t0 + killTimes[i]! - Date.now()));
          await pool.killOne(killTargets[i]!);
          timed++;
        }
      })();
      const deadline = Date.now() + options.waveTimeoutMs;
      const outcomes = await Promise.all(
        handles.map((h) => awaitOutcome(api.client, h.workflowId, deadline)),
      );
      await kills;
      waveMs.push(Date.now() - waveStarted);

      await mapLimit(tags, 8, async (tag, i) => {
        const outcome = outcomes[i]!;
        const id = handles[i]!.delegationId;
        const plantedStep = plants.get(tag);
        // The marker is gone once its bash step reached the kill: the worker died after the
        // step's effect, so that step can only have been reported as lost, never as a success.
        const fired =
          plantedStep !== undefined &&
          !existsSync(join(site.workspace, 'kill', `${tag}.s${plantedStep}`));
        if (fired) plantedFired++;
        const seen = await checkStepper(site, api.client, id, handles[i]!.workflowId, tag, outcome);
        violations.push(...seen.violations);
        toldLost += seen.toldLost;
        toolErrors += seen.toolErrors;
        errorSample ??= seen.errorSample;
        effectsCounted += seen.effects;
        finishedStatus = tally(finishedStatus, seen.status);
        if (fired && seen.finished && !seen.firedAt.has(plantedStep)) {
          violations.push(
            `${id}: bash step ${plantedStep} killed its worker after its effect, yet its result does not say the tool may have started and was not retried`,
          );
        }
      });
    }
  } finally {
    await pool.close();
    await api.close();
  }
  return {
    scenario: '1 worker SIGKILL',
    runs: options.runs,
    checked:
      'no lost delegation; no write/edit/bash effect twice; success = effect on disk; lost tool told to the model (may have started, not retried)',
    figures: {
      startsRetriedAfter503: startRetries.count,
      kills: plantedFired + timed,
      killsInsideTool: plantedFired,
      plantedKills: planted,
      timedKills: timed,
      workerDeaths: pool.deaths,
      toolsToldLost: toldLost,
      otherToolErrors: toolErrors,
      ...(errorSample === undefined ? {} : { otherToolErrorSample: errorSample }),
      effectsCounted,
      ...Object.fromEntries(Object.entries(finishedStatus).map(([k, v]) => [`ended_${k}`, v])),
      slowestWaveS: Number((Math.max(...waveMs) / 1000).toFixed(1)),
    },
    violations,
    durationMs: Date.now() - started,
  };
}

function tally(counts: Record<string, number>, key: string): Record<string, number> {
  return { ...counts, [key]: (counts[key] ?? 0) + 1 };
}

interface Checked {
  violations: string[];
  status: string;
  toldLost: number;
  toolErrors: number;
  effects: number;
  /** Steps whose result said the tool may have started and was not retried. */
  firedAt: Set<number>;
  finished: boolean;
  /** One tool error that was not a lost worker, for the report. */
  errorSample?: string;
}

/** One delegation's invariants: its end, its events and its effects on disk. */
export async function checkStepper(
  site: Site,
  client: Parameters<typeof eventsOf>[0],
  id: string,
  workflowId: string,
  tag: string,
  outcome: Outcome,
): Promise<Checked> {
  const violations: string[] = [];
  const firedAt = new Set<number>();
  const checked: Checked = {
    violations,
    status: outcome.kind === 'finished' ? outcome.result.status : outcome.kind,
    toldLost: 0,
    toolErrors: 0,
    effects: 0,
    firedAt,
    finished: outcome.kind === 'finished',
  };
  if (outcome.kind === 'open') {
    violations.push(`${id}: LOST, still ${outcome.status} when the wave's deadline passed`);
    return checked;
  }
  if (outcome.kind === 'closed') {
    violations.push(`${id}: closed without a result: ${outcome.error}`);
    return checked;
  }
  const { result } = outcome;
  if (result.status !== 'completed' && !result.notice) {
    violations.push(`${id}: ended ${result.status} without a notice saying why`);
  }
  // A query replays the run on a worker: a replay that fails (nondeterminism) is a finding too.
  let all;
  try {
    all = await eventsOf(client, workflowId);
  } catch (error) {
    violations.push(
      `${id}: finished ${result.status}, but its events cannot be read: ${(error as Error).message}`,
    );
    return checked;
  }
  const events = all.filter((e) => e.type === 'tool-call');
  if (result.status === 'completed' && events.length !== STEPPER_STEPS.length) {
    violations.push(
      `${id}: completed after ${events.length} tool calls, the script has ${STEPPER_STEPS.length}`,
    );
  }
  const log = await readFile(join(site.workspace, 'fx', `${tag}.log`), 'utf8').catch(() => null);
  const lines = log === null ? [] : log.split('\n');
  for (const [index, event] of events.entries()) {
    const step = STEPPER_STEPS[index];
    if (step === undefined || event.type !== 'tool-call') continue;
    const failed = event.summary.startsWith(`[tool '${step.tool}' failed]`);
    const told = failed && TOLD.test(event.summary);
    if (told) {
      firedAt.add(step.step);
      checked.toldLost++;
      if (!AT_MOST_ONCE.has(step.tool)) {
        violations.push(
          `${id}: read-class step ${step.step} (${step.tool}) was not retried: ${event.summary}`,
        );
      }
    } else if (failed) {
      checked.toolErrors++;
      checked.errorSample ??= `${id} step ${step.step}: ${event.summary.slice(0, 160)}`;
    }
    if (step.effect === 'line') {
      const count = lines.filter((l) => l === effectLine(tag, step.step, step.tool)).length;
      checked.effects++;
      if (count > 1) {
        violations.push(
          `${id}: step ${step.step} (${step.tool}) took effect ${count} times on disk`,
        );
      }
      if (!failed && count !== 1) {
        violations.push(
          `${id}: step ${step.step} (${step.tool}) reported success but its effect is on disk ${count} times`,
        );
      }
    }
    if (step.effect === 'file' && !failed) {
      checked.effects++;
      const path = step.step === 1 ? `fx/${tag}.log` : `fx/${tag}.w${step.step}`;
      if (!existsSync(join(site.workspace, path))) {
        violations.push(`${id}: step ${step.step} (write) reported success but ${path} is missing`);
      }
    }
  }
  return checked;
}
