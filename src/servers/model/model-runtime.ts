/**
 * The model server's runtime: a Python virtual environment holding the pinned `xllamacpp` wheel,
 * in the tools folder (src/paths/tools-directory.ts) like the Temporal CLI, installed once per
 * user and reused. Only `venv/bin/python` is ever run (never a script of the venv, whose first
 * line names the staging folder it was built in), so the venv works after it is renamed into
 * place.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toolsDirectoryOf } from '../../paths/tools-directory.js';
import { installToolOnce } from '../tool-install.js';
import { XLLAMACPP_VERSION } from './local-model-pins.js';

const run = promisify(execFile);

/** Written last: a venv without it is a broken earlier install. */
const COMPLETE_MARKER = 'installed';

export const modelRuntimeDirOf = (env: NodeJS.ProcessEnv): string =>
  join(toolsDirectoryOf(env), `xllamacpp-${XLLAMACPP_VERSION}`);

/** Returns the venv's python, installing the runtime if needed. */
export async function ensureModelRuntime(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<string> {
  const target = modelRuntimeDirOf(env);
  const python = join(target, 'venv', 'bin', 'python');
  await installToolOnce({
    target,
    name: 'the model runtime',
    isInstalled: () => existsSync(python) && existsSync(join(target, COMPLETE_MARKER)),
    installing: `Installing the model runtime (PyPI xllamacpp==${XLLAMACPP_VERSION}) into ${target}`,
    build: (staging) => buildVenv(staging, env),
    log,
  });
  return python;
}

async function buildVenv(staging: string, env: NodeJS.ProcessEnv): Promise<void> {
  const venv = join(staging, 'venv');
  const pipEnv = { ...env, PIP_ROOT_USER_ACTION: 'ignore', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  await step(`python3 -m venv ${venv}`, () => run('python3', ['-m', 'venv', venv], { env }));
  await step(`pip install xllamacpp==${XLLAMACPP_VERSION}`, () =>
    run(
      join(venv, 'bin', 'python'),
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--only-binary',
        ':all:',
        `xllamacpp==${XLLAMACPP_VERSION}`,
      ],
      { env: pipEnv, maxBuffer: 16 * 1024 * 1024 },
    ),
  );
  await writeFile(join(staging, COMPLETE_MARKER), `xllamacpp==${XLLAMACPP_VERSION}\n`);
}

/** Runs one install step; a failure says which step, and what pip or python said. */
export async function step(what: string, action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(
      `installing the local model failed at \`${what}\`: ${(stderr ?? '').trim() || message}`,
    );
  }
}
