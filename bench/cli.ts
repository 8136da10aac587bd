/**
 * B-cli (issue 26): how long a `deputy` command takes, wall time of a whole process, against
 * baselines measured in the same run: `node -e 0` (Node's own start) and the Go Temporal CLI's
 * `temporal workflow list --limit 1` on the same dev server (a CLI that answers from a server).
 * `deputy` runs as installed (compiled `dist/`, DEPUTY_COMPILED=1; `npm run build` first) and, for
 * the record, as a clone runs it (the TypeScript source through tsx). Targets: `deputy cards
 * --json` at most 300 ms, and within 4x the Temporal CLI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_ROOT } from '../src/config.js';
import { startDevServer } from '../src/temporal/dev-server.js';
import { ensureTemporalCli } from '../src/temporal/temporal-cli.js';
import { WORKFLOW_BUNDLE } from '../src/worker.js';
import { alternate, median, msAgainst, type BenchReport, type BenchRow } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const BIN = join(PROJECT_ROOT, 'bin', 'deputy.mjs');

function timed(samples: number[], command: string, args: string[], env: NodeJS.ProcessEnv) {
  return async (): Promise<void> => {
    const started = performance.now();
    const result = spawnSync(command, args, { env, encoding: 'utf8', cwd: tmpdir() });
    samples.push(performance.now() - started);
    if (result.status !== 0) {
      throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    }
  };
}

export async function benchCli(): Promise<BenchReport> {
  if (!existsSync(WORKFLOW_BUNDLE)) {
    spawnSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-bench-cli-'));
  const server = await startDevServer({ dataDir, headless: true });
  const temporal = await ensureTemporalCli();
  try {
    const env = { ...process.env, TEMPORAL_ADDRESS: server.address };
    const compiled = { ...env, DEPUTY_COMPILED: '1' };
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
        against('deputy --version', 'node -e 0'),
        against('deputy --help', 'node -e 0'),
        against('deputy cards --json (source, tsx)', 'deputy cards --json'),
        against('temporal workflow list', 'node -e 0'),
      ],
      notes: [
        `${RUNS} runs of each, alternating, after one warm-up; compiled deputy (DEPUTY_COMPILED=1), its own dev server`,
      ],
    };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
