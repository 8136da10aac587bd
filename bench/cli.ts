/**
 * The `cli` bench: how long a `deputy` command takes, wall time of a whole process, against
 * baselines measured in the same run: `node -e 0` (Node's own start) and the Go Temporal CLI's
 * `temporal workflow list --limit 1` on the same dev server (a CLI that answers from a server).
 * `deputy` runs as installed (compiled `dist/`, DEPUTY_COMPILED=1; `npm run build` first) and, for
 * the record, as a clone runs it (the TypeScript source through tsx). `deputy cards` is measured
 * both ways it answers: through the running API's local socket (an API is started on the same
 * server and data directory, as `deputy dev` has one) and talking to Temporal itself
 * (DEPUTY_LOCAL_API=0). Targets: `deputy cards --json` at most 300 ms, and within 4x the Temporal
 * CLI.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_ROOT } from '../src/config/load.js';
import { localApiSocketPath } from '../src/paths/workspace-directories.js';
import { startDevServer } from '../src/servers/dev/dev-server.js';
import { ensureTemporalCli } from '../src/servers/dev/temporal-cli.js';
import { WORKFLOW_BUNDLE } from '../src/worker/worker.js';
import { alternate, median, msAgainst, type BenchReport, type BenchRow } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const BIN = join(PROJECT_ROOT, 'bin', 'deputy.mjs');

function timed(samples: number[], command: string, args: string[], env: NodeJS.ProcessEnv) {
  return async (): Promise<void> => {
    const started = performance.now();
    const result = spawnSync(command, args, {
      env,
      encoding: 'utf8',
      cwd: tmpdir(),
      timeout: 30_000,
    });
    samples.push(performance.now() - started);
    if (result.status !== 0) {
      throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    }
  };
}

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function benchCli(): Promise<BenchReport> {
  if (!existsSync(WORKFLOW_BUNDLE)) {
    spawnSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-bench-cli-'));
  const server = await startDevServer({ dataDir, headless: true });
  const temporal = await ensureTemporalCli();
  const env = { ...process.env, TEMPORAL_ADDRESS: server.address, DEPUTY_DATA_DIR: dataDir };
  const compiled = { ...env, DEPUTY_COMPILED: '1' };
  // `deputy api` in a process of its own (spawnSync below blocks this one), on the same data dir.
  const api = spawn(process.execPath, [BIN, 'api', '--port', '0'], {
    env: compiled,
    cwd: tmpdir(),
    stdio: 'ignore',
  });
  try {
    await until(() => existsSync(localApiSocketPath(dataDir)), 'the API to open its local socket');
    const direct = { ...compiled, DEPUTY_LOCAL_API: '0' };
    const samples: Record<string, number[]> = {};
    const side = (name: string, command: string, args: string[], sideEnv = env) =>
      timed((samples[name] = []), command, args, sideEnv);
    const node = process.execPath;
    const sides = [
      side('node -e 0', node, ['-e', '0']),
      side('temporal workflow list', temporal, [
        'workflow',
        'list',
        '--address',
        server.address,
        '--limit',
        '1',
      ]),
      side('deputy --version', node, [BIN, '--version'], compiled),
      side('deputy --help', node, [BIN, '--help'], compiled),
      side('deputy cards --json', node, [BIN, 'cards', '--json'], compiled),
      side('deputy cards --json (direct to Temporal)', node, [BIN, 'cards', '--json'], direct),
      side('deputy cards --json (source, tsx)', node, [BIN, 'cards', '--json']),
    ];
    // One warm-up round: the first run of each reads its files from disk.
    for (const run of sides) await run();
    for (const values of Object.values(samples)) values.length = 0;
    await alternate(RUNS, sides);
    const against = (name: string, base: string, target?: string): BenchRow =>
      msAgainst(`${name} vs ${base}`, samples[name]!, samples[base]!, median, target);
    const cards = median(samples['deputy cards --json']!);
    return {
      name: 'B-cli: a deputy command, whole process (median wall ms)',
      rows: [
        against('deputy cards --json', 'temporal workflow list', '<= 4'),
        { metric: 'deputy cards --json', value: cards, unit: 'ms', target: '<= 300' },
        against('deputy cards --json (direct to Temporal)', 'temporal workflow list'),
        against('deputy --version', 'node -e 0'),
        against('deputy --help', 'node -e 0'),
        against('deputy cards --json (source, tsx)', 'deputy cards --json'),
        against('temporal workflow list', 'node -e 0'),
      ],
      notes: [
        `${RUNS} runs of each, alternating, after one warm-up; compiled deputy (DEPUTY_COMPILED=1), its own dev server`,
        '`deputy cards` answers through the local API socket of the API this bench starts; "direct to Temporal" is DEPUTY_LOCAL_API=0',
      ],
    };
  } finally {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
