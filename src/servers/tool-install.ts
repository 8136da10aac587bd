/**
 * Installs one tool into the shared tools folder (src/paths/tools-directory.ts) once, however many
 * processes ask for it at the same time. The folder is per user, so two projects (or a test run
 * and `deputy dev`) may both find a tool missing at once: the first takes an inter-process lock
 * (proper-lockfile, a directory `<tool>.lock` beside it) and installs; the others wait for the
 * lock, then find the tool there and use it instead of downloading and building it again.
 *
 * The lock saves the work, not the correctness: each install still goes into a private staging
 * folder that is renamed into place, so even a lock lost to a stalled process never shows anyone
 * half a tool.
 */
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';

/**
 * A holder refreshes its lock's mtime every `stale / 2`; a lock older than this belongs to an
 * installer that was killed, and the next one takes it over. proper-lockfile's own default.
 */
const STALE_MS = 10_000;
/** How often a waiting process tries the lock again. */
const POLL_MS = 500;
/**
 * A live installer keeps its lock fresh for as long as it runs: past this, a waiting process
 * stops waiting with an error rather than hang behind an install that never ends. A cold build
 * of the cluster's server takes a few minutes.
 */
const WAIT_LIMIT_MS = 30 * 60_000;

export interface ToolInstall {
  /** The folder the tool lives in once installed (inside the tools folder). */
  target: string;
  /** The tool as messages name it: "the Temporal CLI". */
  name: string;
  /** True when the tool is complete in `target`. */
  isInstalled: () => boolean;
  /** Said once this process has the lock and begins installing. */
  installing: string;
  /** Fills `staging` with the tool; it is renamed to `target` when this returns. */
  build: (staging: string) => Promise<void>;
  log: (line: string) => void;
}

/** What happened: found at once, installed here, or installed by another process meanwhile. */
export type ToolInstallOutcome = 'present' | 'installed' | 'installed-by-another';

export async function installToolOnce(install: ToolInstall): Promise<ToolInstallOutcome> {
  const { target, name, log } = install;
  if (install.isInstalled()) return 'present';
  await mkdir(path.dirname(target), { recursive: true });
  const release = await acquireInstallLock(install);
  try {
    if (install.isInstalled()) {
      log(`${upperFirst(name)} was installed by another process meanwhile: ${target}`);
      return 'installed-by-another';
    }
    await removeLeftoverStaging(target);
    log(install.installing);
    const staging = `${target}.staging-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    try {
      await install.build(staging);
      if (!install.isInstalled()) {
        // Under the lock, a target that exists but is not complete is a broken earlier install
        // (one made before installs took a lock): replace it.
        await rm(target, { recursive: true, force: true });
        await rename(staging, target);
      }
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    if (!install.isInstalled()) {
      throw new Error(`installing ${name} into ${target} finished, but the tool is not there`);
    }
    return 'installed';
  } finally {
    await release().catch(() => undefined);
  }
}

async function acquireInstallLock(install: ToolInstall): Promise<() => Promise<void>> {
  const { target, name, log } = install;
  const lockfilePath = `${target}.lock`;
  const deadline = Date.now() + WAIT_LIMIT_MS;
  let waiting = false;
  for (;;) {
    try {
      return await lockfile.lock(target, {
        lockfilePath,
        realpath: false,
        stale: STALE_MS,
        retries: 0,
        // proper-lockfile's default throws from a timer and kills the process. A lost lock (its
        // refresh was held up past `stale`) only means another process may install alongside.
        onCompromised: () =>
          log(`The install lock ${lockfilePath} was taken over; installing ${name} anyway`),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      if (!waiting) {
        log(`Waiting for another process installing ${name} into ${target} (lock ${lockfilePath})`);
        waiting = true;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `waited ${WAIT_LIMIT_MS / 60_000} minutes for another process installing ${name} (lock ${lockfilePath}, kept fresh all along): ` +
            'stop that process, or install the tool yourself',
        );
      }
      await sleep(POLL_MS);
    }
  }
}

/**
 * Staging folders of installers that were killed (`<target>.staging-<pid>`, that pid gone). Only
 * called under the lock, and installs stage only under it, so no live install is touched; the pid
 * check spares one from a deputy older than the lock.
 */
async function removeLeftoverStaging(target: string): Promise<void> {
  const prefix = `${path.basename(target)}.staging-`;
  for (const entry of await readdir(path.dirname(target))) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(entry.slice(prefix.length));
    if (Number.isInteger(pid) && pid !== process.pid && isRunning(pid)) continue;
    await rm(path.join(path.dirname(target), entry), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
