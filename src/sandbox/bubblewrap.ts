/**
 * The Linux sandbox: bubblewrap (`bwrap`) starts a command in namespaces of its own (mount, PID,
 * IPC, UTS, network, user, cgroup), with the system folders read-only, the declared paths bound
 * at their own paths, nothing else of the file system, no network at all, and `prlimit`'s
 * ceilings inherited by everything the command starts.
 *
 * What bwrap does without being asked: it sets no-new-privileges (a setuid program gains nothing),
 * mounts every bind nosuid and nodev, and drops every capability inside the sandbox.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { isInside } from '../shared/path-containment.js';
import type { SandboxBounds } from '../shared/sandbox-contract.js';
import { findExecutable } from './find-executable.js';
import { SECCOMP_FD, launcher } from './launcher.js';
import { limitWrapper, processCeiling, resolvedLimits } from './limits.js';
import { seccompFile } from './seccomp.js';
import { ETC_SECRETS, coverArgs, kindOf, systemMountArgs } from './system-mounts.js';

/** Where Debian, Ubuntu and most distributions install their programs, when PATH says nothing. */
const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Folders the sandbox shows, so a tool found in them outside runs at the same path inside. */
const SYSTEM_PROGRAM_FOLDERS = ['/usr', '/bin', '/sbin'];
/**
 * The sandbox's own user: nobody. Outside it is still the worker's uid (the files it writes in
 * the workspace are the worker's), inside it owns nothing of the system.
 */
const SANDBOX_UID = '65534';
const SANDBOX_GID = '65534';
/** PATH, HOME and LANG inside, unless the bounds pass the worker's own by name. */
const SAFE_ENV = { PATH: FALLBACK_PATH, HOME: '/tmp', LANG: 'C.UTF-8' };

interface Runner {
  bwrap: string;
  prlimit: string;
}

type Found = { ok: true; runner: Runner } | { ok: false; problem: string };

const found = new Map<string, Found>();

/**
 * The bwrap executable, or why there is none and how to get it. Cached per process (and per
 * `searchPath`, the `PATH` to look in; the worker's own by default).
 */
export function findBubblewrap(
  searchPath: string = process.env.PATH ?? FALLBACK_PATH,
): { ok: true; path: string } | { ok: false; problem: string } {
  const result = findRunner(searchPath);
  return result.ok ? { ok: true, path: result.runner.bwrap } : result;
}

function findRunner(searchPath: string): Found {
  let result = found.get(searchPath);
  if (result === undefined) {
    result = lookUp(searchPath);
    found.set(searchPath, result);
  }
  return result;
}

function lookUp(searchPath: string): Found {
  if (process.platform !== 'linux') {
    return {
      ok: false,
      problem: `no sandbox on ${process.platform === 'darwin' ? 'macOS' : process.platform} in this version: deputy sandboxes commands on Linux only (bubblewrap)`,
    };
  }
  const bwrap = findExecutable('bwrap', searchPath);
  if (bwrap === undefined) {
    return {
      ok: false,
      problem: `bubblewrap (bwrap) was not found on PATH (${searchPath}): install it with \`apt-get install bubblewrap\` on Debian or Ubuntu (\`dnf install bubblewrap\` on Fedora)`,
    };
  }
  const prlimit = findExecutable('prlimit', searchPath);
  if (prlimit === undefined) {
    return {
      ok: false,
      problem: `prlimit was not found on PATH (${searchPath}): it sets the sandbox's limits; install util-linux (\`apt-get install util-linux\`)`,
    };
  }
  if (!SYSTEM_PROGRAM_FOLDERS.some((folder) => isInside(folder, prlimit))) {
    return {
      ok: false,
      problem: `prlimit is at ${prlimit}, outside the system folders the sandbox shows (${SYSTEM_PROGRAM_FOLDERS.join(', ')})`,
    };
  }
  // One real start, so a kernel or container that forbids namespaces is reported here, with
  // bwrap's own words, instead of as every command's failure.
  const probe = spawnSync(
    bwrap,
    [...namespaceArgs(), ...systemMountArgs(), '--', prlimit, '--version'],
    { encoding: 'utf8', env: {}, timeout: 10_000 },
  );
  if (probe.status !== 0) {
    const said = `${probe.stderr ?? ''}`.trim() || probe.error?.message || `exit ${probe.status}`;
    return {
      ok: false,
      problem: `bubblewrap (${bwrap}) cannot make a sandbox on this machine: ${said} (it needs user namespaces: check \`sysctl user.max_user_namespaces\`, or the container's seccomp profile)`,
    };
  }
  return { ok: true, runner: { bwrap, prlimit } };
}

/** Every namespace bwrap can make: no network (only a loopback of its own), no host PIDs. */
function namespaceArgs(): string[] {
  return [
    '--unshare-all',
    '--unshare-user',
    '--uid',
    SANDBOX_UID,
    '--gid',
    SANDBOX_GID,
    '--hostname',
    'sandbox',
    '--cap-drop',
    'ALL',
    // A namespace made inside would hand the command every capability over it again.
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
  ];
}

/**
 * The argv that runs `argv` inside `bounds`: `[...launcher, bwrapPath, ...bwrapArgs, '--',
 * ...limitWrapper, ...argv]`, where the launcher is a small `sh` that hands bwrap the seccomp
 * filter (and, for a root worker, moves into a pids cgroup) and execs it: bwrap keeps its pid.
 * `hidden` are paths that must not be visible at all even if a bound would show them (deputy's
 * data directory, its configuration folder, the home directory's secrets...).
 * `env` is the environment to spawn it with: only bounds.env names, from `from`, plus PATH, HOME
 * and LANG set to safe values. bwrap passes it on as it is, so no value ever appears in an argv
 * (which every user of the machine can read in /proc).
 */
export function sandboxedArgv(
  bounds: SandboxBounds,
  argv: string[],
  options: { hidden: string[]; from: NodeJS.ProcessEnv; cwd: string },
): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
  const runner = findRunner(process.env.PATH ?? FALLBACK_PATH);
  if (!runner.ok) throw new Error(runner.problem);
  const { bwrap, prlimit } = runner.runner;
  const limits = resolvedLimits(bounds.limits);

  const hidden = withResolved(options.hidden);
  const isHidden = (file: string): boolean =>
    withResolved([file]).some((form) => hidden.some((secret) => isInside(secret, form)));
  const binds = [
    ...bounds.readWrite.map((file) => ({ file, flag: '--bind-try' })),
    ...bounds.readOnly.map((file) => ({ file, flag: '--ro-bind-try' })),
  ]
    .filter(({ file }) => !isHidden(file))
    // Shallow first, so a path declared inside another is mounted over it and keeps its own mode.
    .sort((a, b) => depth(a.file) - depth(b.file));
  if (isHidden(options.cwd) || !binds.some(({ file }) => isInside(file, options.cwd))) {
    throw new Error(`the sandbox's working folder ${options.cwd} is not among its visible paths`);
  }

  const shown = ['/usr', '/etc', ...binds.map(({ file }) => file)];
  const covers = [...ETC_SECRETS, ...hidden]
    .filter((file) => shown.some((root) => isInside(root, file)))
    .flatMap((file) => coverArgs(file, kindOf(file)));

  const bwrapArgs = [
    ...namespaceArgs(),
    ...systemMountArgs(),
    '--proc',
    '/proc',
    // The kernel lets the worker's uid write the sysctls it owns: a root worker's sandbox could set
    // kernel.core_pattern for the whole machine. bwrap leaves /proc/sys writable in a user
    // namespace, so the host's is shown read-only over it (its values are the host's to read).
    '--ro-bind',
    '/proc/sys',
    '/proc/sys',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    ...binds.flatMap(({ file, flag }) => [flag, file, file]),
    ...covers,
    '--chdir',
    options.cwd,
  ];
  const filter = seccompFile();
  const ceiling = processCeiling();
  const [file, ...args] = [
    ...launcher({
      seccompFile: filter,
      cgroupParent: ceiling.kind === 'cgroup' ? ceiling.parent : undefined,
      processes: limits.processes,
    }),
    bwrap,
    ...bwrapArgs,
    ...(filter === undefined ? [] : ['--seccomp', String(SECCOMP_FD)]),
    '--',
    ...limitWrapper(prlimit, limits),
    ...argv,
  ];
  return { file: file ?? '/bin/sh', args, env: sandboxEnv(bounds.env, options.from) };
}

function sandboxEnv(names: string[], from: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...SAFE_ENV };
  for (const name of names) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Each path as given and as the file system resolves it (a link's target is hidden too). */
function withResolved(files: string[]): string[] {
  return files.flatMap((file) => {
    try {
      const real = realpathSync(file);
      return real === file ? [file] : [file, real];
    } catch {
      return [file];
    }
  });
}

function depth(file: string): number {
  return file.split('/').filter((segment) => segment !== '').length;
}
