/**
 * A sandboxed `bash -c true` against a bare spawn of the same, alternating in the same run: what
 * the sandbox adds to every bash call (bwrap making its namespaces and mounts, the launcher, the
 * seccomp filter, prlimit). Target: at most 15 ms more per call at p50.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { findBubblewrap, sandboxedArgv } from '../../src/sandbox/bubblewrap.js';
import { processCeiling } from '../../src/sandbox/limits.js';
import { alternate, median, msAgainst, percentile, type BenchReport } from '../stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 10;
const COMMAND = ['bash', '--norc', '--noprofile', '-c', 'true'];

function timed(file: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${file} exited ${code}`));
      else resolve(performance.now() - start);
    });
  });
}

export async function benchSandbox(): Promise<BenchReport> {
  const found = findBubblewrap();
  if (!found.ok) return { name: 'sandboxed bash call', rows: [], notes: [found.problem] };
  const workspace = mkdtempSync(path.join(tmpdir(), 'deputy-bench-sandbox-'));
  try {
    const sandboxed = sandboxedArgv(
      { readWrite: [workspace], readOnly: [], env: [], limits: {} },
      COMMAND,
      { hidden: [], from: process.env, cwd: workspace },
    );
    const bareEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
    const [bareFile = 'bash', ...bareArgs] = COMMAND;
    const bare: number[] = [];
    const boxed: number[] = [];
    const sides = (keep: boolean): Array<() => Promise<unknown>> => [
      async () => {
        const ms = await timed(bareFile, bareArgs, bareEnv, workspace);
        if (keep) bare.push(ms);
      },
      async () => {
        const ms = await timed(sandboxed.file, sandboxed.args, sandboxed.env, workspace);
        if (keep) boxed.push(ms);
      },
    ];
    await alternate(WARMUP, sides(false));
    await alternate(RUNS, sides(true));
    const added = median(boxed) - median(bare);
    return {
      name: 'sandboxed bash call (bubblewrap) vs a bare spawn',
      rows: [
        msAgainst('bash -c true sandboxed, p50', boxed, bare, median),
        msAgainst('bash -c true sandboxed, p95', boxed, bare, (values) => percentile(values, 95)),
        { metric: 'added per call at p50', value: added, unit: 'ms', target: '<= 15' },
        {
          metric: 'added per call at p95',
          value: percentile(boxed, 95) - percentile(bare, 95),
          unit: 'ms',
        },
      ],
      notes: [
        `${RUNS} calls each, alternating, after ${WARMUP} warm-up pairs; ${found.path}, process ceiling by ${processCeiling().kind}`,
      ],
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
