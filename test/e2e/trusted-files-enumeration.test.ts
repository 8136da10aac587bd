/**
 * The trusted list (src/paths/trusted-files.ts) against what deputy really reads (issue 25).
 * Real `deputy` processes run under strace on a workspace, a user level and a home directory
 * that hold every trusted location and a few ordinary files: listing and showing agents, listing
 * MCP servers, and a `deputy dev` (a worker and the API, on the suite's Temporal) that runs a
 * delegation. Every path under those three places that a process opened, checked for, watched or
 * ran must lie in a trusted location (or on the way to one); anything else is a loader the list
 * does not know, and the test names it. The ordinary files must never be opened at all.
 *
 * The delegation's agent calls no tool: what tools read for an agent is policy's business, not
 * something deputy reads as authority.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { trustedLocations } from '../../src/paths/trusted-files.js';
import { isInside } from '../../src/shared/path-containment.js';
import { DEPUTY_BIN, printedApiUrl, spawnCaptured } from './run-deputy.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-enum-')));
const workspace = join(base, 'ws');
const userDir = join(base, 'user');
const home = join(base, 'home');
const dataDir = join(workspace, '.deputy');
const traces = join(base, 'traces');

const SCRIPTED = (name: string) =>
  `---\nname: ${name}\ndescription: test agent ${name}\nmodel: scripted:scripts/${name}.yaml\nskills: [tidy, review, home-skill]\nmemory: private\n---\nYou are ${name}.\n`;

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
  // A scripted model's script: the model's answers, judged by policy like any model's.
  'ws/scripts/talker.yaml': 'turns:\n  - text: Nothing to do.\n',
  // Ordinary files deputy has no business opening.
  'ws/README.md': '# a project\n',
  'ws/tsconfig.json': '{"compilerOptions":{"paths":{"zod":["./evil.js"]}}}\n',
  'ws/package.json': '{"name":"a-project"}\n',
  'ws/.env': 'SECRET=1\n',
  'ws/src/index.ts': 'export {};\n',
};
const ORDINARY = ['README.md', 'tsconfig.json', 'package.json', '.env', 'src/index.ts'].map(
  (file) => join(workspace, file),
);
/** Read, but not as authority (see FILES). */
const NOT_AUTHORITY = [join(workspace, 'scripts')];

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

function traceCommand(name: string, args: string[]): void {
  const result = spawnSync('strace', [...strace(name), process.execPath, DEPUTY_BIN, ...args], {
    cwd: workspace,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) {
    throw new Error(`deputy ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
}

/** `syscall(..., "path", ...)` -> [syscall, path], for every line of a trace. */
function tracedPaths(name: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const line of readFileSync(join(traces, `${name}.txt`), 'utf8').split('\n')) {
    const match = /^\d+\s+([a-z0-9_]+)\([^"]*"((?:[^"\\]|\\.)*)"/.exec(line);
    if (match) found.push([match[1]!, match[2]!]);
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
  traceCommand('agents-list', ['agents', 'list']);
  traceCommand('agents-show', ['agents', 'show', 'talker']);
  traceCommand('agents-show-main', ['agents', 'show', 'talker', '--main']);
  traceCommand('mcp-list', ['mcp', 'list', '--wait', '1']);
  await runDevWithDelegation();
  runs = ['agents-list', 'agents-show', 'agents-show-main', 'mcp-list', 'dev'];
}, 600_000);

/** `deputy dev` under strace, a delegation through its API, then Ctrl-C. */
async function runDevWithDelegation(): Promise<void> {
  const dev = spawnCaptured(
    'strace',
    [...strace('dev'), process.execPath, DEPUTY_BIN, 'dev', '--port', '0'],
    { cwd: workspace, env },
  );
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
    // Ctrl-C goes to deputy itself: strace passes no signal on to the process it traces.
    const { pid } = dev.child;
    const tracee = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    if (tracee !== '') process.kill(Number(tracee.split(' ')[0]), 'SIGINT');
    await dev.exited;
  }
}

afterAll(() => {
  // The dev server's files are the runner's to keep only while it runs.
  spawnSync('rm', ['-rf', base]);
});

const locations = trustedLocations(
  { workspace, dataDir, userDir, projectRoot: PROJECT_ROOT, skills: { pluginDirs: [] } },
  { homeDir: home, env },
);

/** Inside a trusted location, or a folder on the way to one (looked at to find it). */
function trusted(path: string): boolean {
  return locations.some(
    (location) => isInside(location.path, path) || isInside(path, location.path),
  );
}

describe('the trusted list covers what deputy reads', () => {
  it('every path deputy opened, looked for, watched or ran under the workspace, user level and home is trusted', () => {
    const untrusted = new Set<string>();
    let seen = 0;
    for (const run of runs) {
      for (const [syscall, path] of tracedPaths(run)) {
        if (![workspace, userDir, home].some((root) => isInside(root, path))) continue;
        seen += 1;
        if (trusted(path) || NOT_AUTHORITY.some((root) => isInside(root, path))) continue;
        untrusted.add(`${run}: ${syscall} ${path.slice(base.length)}`);
      }
    }
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
    ]) {
      expect(opened, file).toContain(join(base, file));
    }
  });

  it('never opens the ordinary files (a tsconfig.json in the workspace is not deputy’s)', () => {
    const opened = runs.flatMap((run) => tracedPaths(run).map(([, path]) => path));
    expect(opened.filter((path) => ORDINARY.includes(path))).toEqual([]);
  });
});
