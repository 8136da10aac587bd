/**
 * What a process deputy starts for an agent is spawned as when the agent's sandbox is on: the
 * runner's argv, with deputy's hidden places and the home directory's secrets covered.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { findBubblewrap, sandboxedArgv } from './bubblewrap.js';
import type { SandboxBounds } from '../shared/sandbox-contract.js';

/** The two calls of the sandbox runner (src/sandbox/bubblewrap.ts). */
export interface SandboxRunner {
  find: typeof findBubblewrap;
  argv: typeof sandboxedArgv;
}

const BUBBLEWRAP: SandboxRunner = { find: findBubblewrap, argv: sandboxedArgv };

/**
 * Where a home directory keeps credentials: keys, cloud and registry logins, and `~/.config`
 * (deputy's user folder, the Temporal client's profiles, gh's token...). Covered whenever a
 * declared path would show them.
 */
export const HOME_SECRETS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config',
  '.docker',
  '.kube',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.pgpass',
  '.cargo/credentials.toml',
];

export interface SandboxedSpawnOptions {
  /** deputyRoots(config).hiddenRoots: the data directory, config.yaml... */
  hiddenRoots: readonly string[];
  cwd: string;
  /** The worker's environment the declared names are taken from; default process.env. */
  from?: NodeJS.ProcessEnv;
  home?: string;
  runner?: SandboxRunner;
}

export function sandboxedSpawn(
  bounds: SandboxBounds,
  argv: string[],
  options: SandboxedSpawnOptions,
): { file: string; args: string[]; env: NodeJS.ProcessEnv } | { problem: string } {
  const runner = options.runner ?? BUBBLEWRAP;
  const found = runner.find();
  if (!found.ok) return { problem: found.problem };
  const home = options.home ?? homedir();
  const hidden = [
    ...new Set([...options.hiddenRoots, ...HOME_SECRETS.map((entry) => path.join(home, entry))]),
  ];
  try {
    return runner.argv(bounds, argv, {
      hidden,
      from: options.from ?? process.env,
      cwd: options.cwd,
    });
  } catch (error) {
    return { problem: `no sandbox could be made: ${(error as Error).message}` };
  }
}
