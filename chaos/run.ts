/**
 * `npm run chaos -- [--profile short|long] [--seed N] [--only 1,3]`: the chaos suite on real
 * processes (a Temporal dev server, deputy workers, the HTTP API). Prints the seed first (a
 * failing run repeats with `--seed N`), one table at the end, writes the same as JSON to
 * bench/results/chaos-<profile>-<date>.json, and exits 1 when any invariant was violated.
 *
 * Scenarios run side by side, each on its own workspace and task queue: most of their time is
 * spent waiting for Temporal to notice a dead worker (heartbeat timeouts), not on the CPU. The
 * server-restart scenario has a dev server of its own, since it kills it.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeAgents } from './agents.js';
import { createRoot, createSite, startServer, writeBundle, type Site } from './cluster.js';
import { PROFILES, type Profile } from './profiles.js';
import { renderTable, writeJson, type RunReport, type ScenarioResult } from './report.js';
import { createRng, randomSeed } from './rng.js';
import { decisions } from './scenarios/decisions.js';
import { gracefulShutdown } from './scenarios/graceful-shutdown.js';
import { serverRestart } from './scenarios/server-restart.js';
import { twoWorkers } from './scenarios/two-workers.js';
import { workerKill } from './scenarios/worker-kill.js';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'short' },
    seed: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const profileName = values.profile!;
const profile: Profile | undefined = PROFILES[profileName];
if (!profile) {
  console.error(`unknown profile '${profileName}': short or long`);
  process.exit(2);
}
const seed = values.seed === undefined ? randomSeed() : Number(values.seed);
if (!Number.isInteger(seed) || seed < 0) {
  console.error(`--seed must be a non-negative integer, got '${values.seed}'`);
  process.exit(2);
}
const only = values.only === undefined ? null : new Set(values.only.split(',').map(Number));
const wanted = (n: number): boolean => only === null || only.has(n);

const startedAt = new Date();
console.log(`chaos: profile ${profileName}, seed ${seed} (repeat with --seed ${seed})`);
const rng = createRng(seed);
const root = await createRoot();
console.log(`chaos: working in ${root}`);

const log = (line: string): void => console.log(`chaos: ${line}`);
const [bundle, server] = await Promise.all([
  writeBundle(root),
  startServer(join(root, 'temporal')),
]);
log(`dev server on ${server.address}, workflow bundle built`);

async function site(name: string): Promise<Site> {
  const made = await createSite(root, name);
  await writeAgents(made.workspace, profile!.graceful.toolSeconds);
  return made;
}

/** A scenario that throws is a failure of the run, reported in the table like a violation. */
async function guarded(name: string, body: () => Promise<ScenarioResult>): Promise<ScenarioResult> {
  const started = Date.now();
  log(`${name}: started`);
  try {
    const result = await body();
    log(
      `${name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s, ${result.violations.length} violation(s)`,
    );
    return result;
  } catch (error) {
    log(`${name}: crashed: ${(error as Error).stack ?? String(error)}`);
    return {
      scenario: name,
      runs: 0,
      checked: 'the scenario ran to its end',
      figures: {},
      violations: [`the scenario itself failed: ${(error as Error).message}`],
      durationMs: Date.now() - started,
    };
  }
}

const scenarios: Array<[number, string, () => Promise<ScenarioResult>]> = [
  [
    1,
    '1 worker SIGKILL',
    async () =>
      workerKill(await site('kill'), server.address, bundle, rng.fork('kill'), profile.kill),
  ],
  [
    2,
    '2 server restarts',
    async () =>
      serverRestart(
        await site('restart'),
        join(root, 'temporal-restart'),
        bundle,
        rng.fork('restart'),
        profile.restart,
      ),
  ],
  [
    3,
    '3 racing decisions',
    async () =>
      decisions(
        await site('decide'),
        server.address,
        bundle,
        rng.fork('decide'),
        profile.decisions,
      ),
  ],
  [
    4,
    '4 two workers',
    async () =>
      twoWorkers(await site('two'), server.address, bundle, rng.fork('two'), profile.twoWorkers),
  ],
  [
    5,
    '5 graceful SIGTERM',
    async () =>
      gracefulShutdown(
        await site('graceful'),
        server.address,
        bundle,
        rng.fork('graceful'),
        profile.graceful,
      ),
  ],
];
const chosen = scenarios.filter(([n]) => wanted(n));
// Side by side (short: mostly waiting on heartbeat timeouts) or one after another (long: the
// load of one must not distort the figures of another).
const results: ScenarioResult[] = [];
if (profile.parallel) {
  results.push(...(await Promise.all(chosen.map(([, name, body]) => guarded(name, body)))));
} else {
  // The 1,000 decided delegations take longest: last, so a deadline still gets the others.
  const order = [...chosen.filter(([n]) => n !== 3), ...chosen.filter(([n]) => n === 3)];
  for (const [, name, body] of order) results.push(await guarded(name, body));
  results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}
await server.stop();

const report: RunReport = {
  profile: profileName,
  seed,
  startedAt: startedAt.toISOString(),
  durationMs: Date.now() - startedAt.getTime(),
  passed: results.every((r) => r.violations.length === 0),
  scenarios: results.map((r) => ({ ...r, passed: r.violations.length === 0 })),
};
const path = await writeJson(report, values.only ?? null);
console.log('');
console.log(renderTable(report));
console.log('');
console.log(`chaos: ${(report.durationMs / 1000).toFixed(1)} s, seed ${seed}, results in ${path}`);
if (!report.passed) {
  console.error('\nchaos: INVARIANTS VIOLATED:');
  for (const result of results) {
    for (const violation of result.violations.slice(0, 50)) {
      console.error(`  [${result.scenario}] ${violation}`);
    }
    if (result.violations.length > 50) {
      console.error(
        `  [${result.scenario}] ... and ${result.violations.length - 50} more (see the JSON)`,
      );
    }
  }
  console.error(`chaos: repeat with: npm run chaos -- --profile ${profileName} --seed ${seed}`);
}
if (values.keep) console.log(`chaos: kept ${root}`);
else await rm(root, { recursive: true, force: true }).catch(() => {});
process.exit(report.passed ? 0 : 1);
