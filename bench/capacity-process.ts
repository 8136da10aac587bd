/**
 * The capacity bench's worker process: spawned (bench/capacity-worker.ts), its resident memory
 * read from /proc, SIGKILLed. Mirrors test/integration/support/worker-process.ts, which tests own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/config/load.js';

export interface WorkerEnv {
  address: string;
  workspace: string;
  userDir: string;
  taskQueue: string;
  bundleFile: string;
  /** DEPUTY_WORKER_* variables (the tuning under test). */
  tuning?: Record<string, string>;
  /** Any other variables (DEPUTY_BLOB_STORE_URL on a cluster). */
  env?: Record<string, string>;
}

export interface BenchWorker {
  child: ChildProcess;
  /** Milliseconds from spawn to `worker ready`. */
  readyMs: number;
  pid: number;
}

export async function spawnBenchWorker(env: WorkerEnv): Promise<BenchWorker> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'bench', 'capacity-worker.ts')],
    {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: env.address,
        DEPUTY_WORKSPACE: env.workspace,
        DEPUTY_USER_DIR: env.userDir,
        TASK_QUEUE: env.taskQueue,
        BENCH_BUNDLE: env.bundleFile,
        ...env.env,
        ...env.tuning,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${output}`)));
  });
  return { child, readyMs: performance.now() - started, pid: child.pid! };
}

/** VmRSS of a process in MiB (Linux). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(kib) / 1024;
}

/** SIGKILL: nothing of the worker runs after it (no shutdown, no sticky queue handed back). */
export async function killBenchWorker(worker: BenchWorker): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.child.once('exit', resolve));
  worker.child.kill('SIGKILL');
  await exited;
}
