/**
 * The trusted set (src/paths/trusted-files.ts, and the files definitions name:
 * src/paths/derived-trusted-files.ts) against what deputy really reads. Real processes run under
 * strace on a workspace, a user level and a home directory that hold every trusted location and a
 * few ordinary files, started the ways people start deputy: listing and showing agents, listing MCP
 * servers, `npx deputy ...`, `npx deputy mcp serve` as an MCP host runs it, and `npm start`
 * (`deputy dev`: a worker and the API, on the suite's Temporal) running a delegation whose Stop
 * hook runs a workspace script. Every path under those three places that a process opened,
 * checked for, watched or ran must lie in a trusted location (or on the way to one); anything else
 * is a loader the set does not know, and the test names it. The ordinary files must never be
 * opened at all.
 *
 * The delegation's agent calls no tool: what tools read for an agent is policy's business, not
 * something deputy reads as authority.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT, loadConfig } from '../../src/config/load.js';
import { createRegistry } from '../../src/definitions/registry/registry.js';
import { namedExecutables } from '../../src/named-executables.js';
import { derivedTrustedLocations } from '../../src/paths/derived-trusted-files.js';
import { toolsDirectoryOf } from '../../src/paths/tools-directory.js';
import { trustedLocations, type TrustedLocation } from '../../src/paths/trusted-files.js';
import { isInside } from '../../src/shared/path-containment.js';
import { DEPUTY_BIN, printedApiUrl, spawnCaptured } from './run-deputy.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-enum-')));
const workspace = join(base, 'ws');
const userDir = join(base, 'user');
const home = join(base, 'home');
const dataDir = join(workspace, '.deputy');
const traces = join(base, 'traces');

const SCRIPTED = (name: string) =>
  `---\nname: ${name}\ndescription: test agent ${name}\nmodel: scripted:scripts/${name}.yaml\nskills: [tidy, review, home-skill]\nmemory: private\nhooks:\n  Stop: [{ command: ./scripts/on-stop.sh }]\n---\nYou are ${name}.\n`;

/** Every trusted location with something in it, and ordinary files beside them. */
const FILES: Record<string, string> = {
  'ws/.subagents/agents/talker.md': SCRIPTED('talker'),
  'ws/.subagents/config.yaml': 'writableRoots: [src]\n',
  'ws/.subagents/skills/tidy/SKILL.md': '---\nname: tidy\ndescription: tidy up\n---\nTidy.\n',
  'ws/.claude/agents/helper.md':
    '---\nname: helper\ndescription: a Claude Code agent\n---\nHelp.\n',
  'ws/.claude/settings.json': '{}\n',
  'ws/.qwen/agents/q.md': '---\nname: q\ndescription: a qwen-code agent\n---\nQ.\n',
  'ws/.agents/skills/review/SKILL.md': '---\nname: review\ndescription: review\n---\nReview.\n',
  'ws/.mcp.json': '{"mcpServers":{}}\n',
  'ws/.git/HEAD': 'ref: refs/heads/main\n',
  'user/agents/mine.md': '---\nname: mine\ndescription: a user agent\n---\nMine.\n',
  'home/.claude/skills/home-skill/SKILL.md':
    '---\nname: home-skill\ndescription: from home\n---\nHome.\n',
  // What the definition names: its model's script and its Stop hook's script.
  'ws/scripts/talker.yaml': 'turns:\n  - text: Nothing to do.\n',
  'ws/scripts/on-stop.sh': '#!/bin/sh\nexit 0\n',
  // What npm and npx read when a person launches deputy here.
  'ws/package.json': '{"name":"a-project","scripts":{"start":"deputy dev --port 0"}}\n',
  'ws/.npmrc': 'fund=false\n',
  // Ordinary files deputy has no business opening.
  'ws/README.md': '# a project\n',
  'ws/tsconfig.json': '{"compilerOptions":{"paths":{"zod":["./evil.js"]}}}\n',
  'ws/.env': 'SECRET=1\n',
  'ws/src/index.ts': 'export {};\n',
  'ws/scripts/unrelated.sh': 'echo nothing names me\n',
};
const ORDINARY = ['README.md', 'tsconfig.json', '.env', 'src/index.ts', 'scripts/unrelated.sh'].map(
  (file) => join(workspace, file),
);

// The suite's Temporal dev server (TEMPORAL_ADDRESS, from test/global-setup.ts) on a queue of this
// file's own: tracing a Temporal server of deputy dev's own would only trace Go's reads of the
// data directory, slowly.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME: home,
  DEPUTY_USER_DIR: userDir,
  DEPUTY_TASK_QUEUE: `enumeration-${process.pid}`,
};
delete env.DEPUTY_PORT;
// The tools folder of the machine, not one under the test's home: tracing pip installing the
// Temporal CLI there would only trace pip.
env.DEPUTY_TOOLS_DIR = toolsDirectoryOf(process.env, homedir());

/** The syscalls that read, look for, watch or run a path (stat alone is not reading). */
const SYSCALLS = 'openat,open,access,faccessat,faccessat2,inotify_add_watch,execve';

function strace(name: string): string[] {
  // --seccomp-bpf: only the traced syscalls stop the process, so the rest run at full speed.
  return [
    '-f',
    '--seccomp-bpf',
    '-qq',
    '-e',
    `trace=${SYSCALLS}`,
    '-o',
    join(traces, `${name}.txt`),
  ];
}

/** `deputy <args>` under strace: run by Node directly, or the way a person types it (`npx`). */
function traceCommand(
  name: string,
  args: string[],
  options: { how?: 'node' | 'npx'; input?: string; env?: NodeJS.ProcessEnv } = {},
): void {
  const command = options.how === 'npx' ? ['npx', 'deputy'] : [process.execPath, DEPUTY_BIN];
  const result = spawnSync('strace', [...strace(name), ...command, ...args], {
    cwd: workspace,
    env: { ...env, ...options.env },
    encoding: 'utf8',
    timeout: 120_000,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  if (result.status !== 0) {
    throw new Error(
      `${command.join(' ')} ${args.join(' ')} exited ${result.status}: ${result.stderr}`,
    );
  }
}

/** An MCP host's first words to `deputy mcp serve`, then it hangs up (stdin ends). */
const MCP_HOST_INPUT = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'enumeration', version: '1' },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((message) => JSON.stringify(message))
  .join('\n');

/** `syscall(..., "path", ...)` -> [syscall, path], for every line of a trace. */
function tracedPaths(name: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const line of readFileSync(join(traces, `${name}.txt`), 'utf8').split('\n')) {
    const match = /^\d+\s+([a-z0-9_]+)\([^"]*"((?:[^"\\]|\\.)*)"/.exec(line);
    // Relative paths are taken from the workspace: deputy, its hooks and its tools run there.
    if (match) found.push([match[1]!, resolve(workspace, match[2]!)]);
  }
  return found;
}

let runs: string[] = [];

beforeAll(async () => {
  if (spawnSync('strace', ['-V']).status !== 0) {
    throw new Error('strace is not installed (Debian package strace; .ci/run installs it)');
  }
  mkdirSync(traces);
  for (const [file, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(base, file)), { recursive: true });
    writeFileSync(join(base, file), content);
  }
  chmodSync(join(workspace, 'scripts', 'on-stop.sh'), 0o755);
  // deputy installed in the project, as npm would: the package and its command.
  mkdirSync(join(workspace, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(PROJECT_ROOT, join(workspace, 'node_modules', 'deputy'));
  symlinkSync('../deputy/bin/deputy.mjs', join(workspace, 'node_modules', '.bin', 'deputy'));
  locations = await trustedSet();
  traceCommand('agents-list', ['agents', 'list']);
  traceCommand('agents-show', ['agents', 'show', 'talker']);
  traceCommand('agents-show-main', ['agents', 'show', 'talker', '--main']);
  traceCommand('mcp-list', ['mcp', 'list', '--wait', '1']);
  traceCommand('npx-agents-list', ['agents', 'list'], { how: 'npx' });
  // As an MCP host starts it, on the suite's Temporal.
  traceCommand('npx-mcp-serve', ['mcp', 'serve'], {
    how: 'npx',
    input: MCP_HOST_INPUT,
    env: { TEMPORAL_ADDRESS: inject('temporalAddress') },
  });
  await runDevWithDelegation();
  runs = [
    'agents-list',
    'agents-show',
    'agents-show-main',
    'mcp-list',
    'npx-agents-list',
    'npx-mcp-serve',
    'dev',
  ];
}, 600_000);

/** The trusted set as a worker finds it for this workspace: the list and what definitions name. */
async function trustedSet(): Promise<TrustedLocation[]> {
  const config = loadConfig({ workspace }, env);
  const registry = createRegistry({ config });
  await registry.load();
  const named = namedExecutables(registry.listAll(), config);
  await registry.close();
  return [
    ...trustedLocations(
      { workspace, dataDir, userDir, projectRoot: PROJECT_ROOT, skills: { pluginDirs: [] } },
      { homeDir: home, env },
    ),
    ...derivedTrustedLocations(workspace, named),
  ];
}

/** `npm start` (`deputy dev`) under strace, a delegation through its API, then Ctrl-C. */
async function runDevWithDelegation(): Promise<void> {
  const dev = spawnCaptured('strace', [...strace('dev'), 'npm', 'start'], { cwd: workspace, env });
  try {
    const apiUrl = await printedApiUrl(dev, 300_000);
    const started = await fetch(`${apiUrl}/delegations?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'talker', task: 'Say something' }),
      signal: AbortSignal.timeout(120_000),
    });
    const body = (await started.json()) as { status?: string; result?: { text?: string } };
    expect(JSON.stringify(body)).toContain('Nothing to do.');
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; deputy dev printed:\n${dev.output().slice(-3000)}`,
    );
  } finally {
    // Ctrl-C as a terminal sends it, to every process under strace (npm, its shell, deputy):
    // strace passes no signal on to the processes it traces.
    for (const pid of descendants(dev.child.pid!)) {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        // Gone already.
      }
    }
    await dev.exited;
  }
}

function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(' ')
      .filter((child) => child !== '')
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

afterAll(() => {
  // The dev server's files are the runner's to keep only while it runs.
  spawnSync('rm', ['-rf', base]);
});

let locations: TrustedLocation[] = [];

/** Inside a trusted location, or a folder on the way to one (looked at to find it). */
function trusted(path: string): boolean {
  return locations.some(
    (location) => isInside(location.path, path) || isInside(path, location.path),
  );
}

describe('the trusted set covers what deputy and its launchers read', () => {
  it('every path deputy opened, looked for, watched or ran under the workspace, user level and home is trusted', () => {
    const untrusted = new Set<string>();
    /** What each run touched, for the report: run -> distinct paths (relative to the base). */
    const report = new Map<string, Set<string>>();
    let seen = 0;
    for (const run of runs) {
      report.set(run, new Set());
      for (const [syscall, path] of tracedPaths(run)) {
        if (![workspace, userDir, home].some((root) => isInside(root, path))) continue;
        seen += 1;
        report.get(run)!.add(`${syscall} ${path.slice(base.length)}`);
        if (trusted(path)) continue;
        untrusted.add(`${run}: ${syscall} ${path.slice(base.length)}`);
      }
    }
    // What was traced, listed in the test's output so a reader sees what the set was held against.
    console.log(
      [...report]
        .map(([run, paths]) => `${run} (${paths.size}):\n  ${[...paths].sort().join('\n  ')}`)
        .join('\n'),
    );
    // The trace saw deputy's own readers at work (else an empty trace would pass).
    expect(seen).toBeGreaterThan(20);
    expect([...untrusted]).toEqual([]);
  });

  it('reads the trusted locations it is meant to (the tracer sees them)', () => {
    const opened = new Set(runs.flatMap((run) => tracedPaths(run).map(([, path]) => path)));
    for (const file of [
      'ws/.subagents/agents/talker.md',
      'ws/.subagents/config.yaml',
      'ws/.agents/skills/review/SKILL.md',
      'ws/.mcp.json',
      'home/.claude/skills/home-skill/SKILL.md',
      'user/agents/mine.md',
      // What the launchers read, and the hook's script the dev run's delegation ran.
      'ws/package.json',
      'ws/.npmrc',
      'ws/scripts/on-stop.sh',
    ]) {
      expect(opened, file).toContain(join(base, file));
    }
  });

  it('never opens the ordinary files (a tsconfig.json in the workspace is not deputy’s)', () => {
    const opened = runs.flatMap((run) => tracedPaths(run).map(([, path]) => path));
    expect(opened.filter((path) => ORDINARY.includes(path))).toEqual([]);
  });
});
