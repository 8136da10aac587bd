import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import type { CapabilitySnapshot } from '../../src/shared/capability-snapshot.js';
import { BASH_LIMITS, createBashTool } from '../../src/tools/bash.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { ToolError } from '../../src/tools/tool.js';
import {
  groupMembers,
  growing,
  heartbeatLoop,
  isRunning,
  killGroup,
  stopGrowing,
} from '../support/processes.js';

const bash = createBashTool();
let workspace: string;
let controller: AbortController;
let heartbeats: number;
let context: ToolContext;
/** Process groups a test started; killed afterwards so a failing test leaves no orphans. */
const groups: number[] = [];

beforeEach(async () => {
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'deputy-bash-')));
  controller = new AbortController();
  heartbeats = 0;
  context = {
    workspaceRoot: workspace,
    snapshot: {} as CapabilitySnapshot,
    signal: controller.signal,
    heartbeat: () => {
      heartbeats += 1;
    },
  };
});

afterEach(async () => {
  while (groups.length > 0) killGroup(groups.pop()!);
  await fs.rm(workspace, { recursive: true, force: true });
});

async function failure(args: Record<string, unknown>): Promise<string> {
  try {
    await bash.run(args, context);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error('expected bash to fail');
}

/** Waits until a command has written its child's pid, so the test can watch that process. */
async function waitForPid(file: string): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    if (text.trim() !== '') return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('pid file never appeared');
}

async function waitUntilDead(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('bash', () => {
  it('runs in the workspace root and reports output and exit code', async () => {
    await fs.writeFile(path.join(workspace, 'hello.txt'), 'hi');
    expect(await bash.run({ command: 'pwd; cat hello.txt; echo; echo oops >&2' }, context)).toBe(
      `${workspace}\nhi\noops\n\n[exit code: 0]`,
    );
  });

  it('reports a failing command as a result, not a tool failure', async () => {
    expect(await bash.run({ command: 'echo nope; exit 3' }, context)).toBe(
      'nope\n\n[exit code: 3]',
    );
    expect(await bash.run({ command: 'true' }, context)).toBe('(no output)\n[exit code: 0]');
  });

  it('does not pass deputy’s own environment through', async () => {
    process.env.DEPUTY_TEST_SECRET = 'sk-should-never-leak';
    try {
      const result = await bash.run({ command: 'env' }, context);
      expect(result).not.toContain('sk-should-never-leak');
      expect(result).not.toContain('DEPUTY_TEST_SECRET');
      expect(result).toContain(`PATH=${process.env.PATH}`);
    } finally {
      delete process.env.DEPUTY_TEST_SECRET;
    }
  });

  it('keeps the start and end of long output and says what was dropped', async () => {
    const total = BASH_LIMITS.headBytes + BASH_LIMITS.tailBytes + 10_000;
    const result = await bash.run(
      { command: `printf 'START'; head -c ${total - 8} /dev/zero | tr '\\0' x; printf 'END'` },
      context,
    );
    expect(result.startsWith('START')).toBe(true);
    expect(result).toContain(
      `[output truncated: showed the first ${BASH_LIMITS.headBytes} and last ${BASH_LIMITS.tailBytes} of ${total} bytes; 10000 bytes in between were dropped]`,
    );
    expect(result.endsWith('END\n[exit code: 0]')).toBe(true);
  });

  it('kills the whole process group on timeout and heartbeats meanwhile', async () => {
    const pidFile = path.join(workspace, 'child.pid');
    // The command would run far past the test's own timeout: one that was not killed fails the
    // test instead of passing slowly, and its child is still alive for the check below.
    const pending = failure({
      command: `echo before; sleep 300 & echo $! > child.pid; wait`,
      timeout_seconds: 2,
    });
    const childPid = await waitForPid(pidFile);
    expect(isRunning(childPid)).toBe(true);
    expect(await pending).toBe(
      'command timed out after 2 seconds and was killed. Output so far:\nbefore\n',
    );
    expect(await waitUntilDead(childPid)).toBe(true);
    expect(heartbeats).toBeGreaterThanOrEqual(1);
  });

  it('kills the whole process group when the call is aborted, even if bash ignores SIGTERM', async () => {
    const pidFile = path.join(workspace, 'child.pid');
    const pending = failure({
      command: `trap '' TERM; sleep 60 & echo $! > child.pid; wait; wait`,
    });
    const childPid = await waitForPid(pidFile);
    controller.abort();
    expect(await pending).toBe('command was cancelled and killed. Output so far:\n(no output)');
    expect(await waitUntilDead(childPid)).toBe(true);
  });

  it('leaves no background process behind after the command exits', async () => {
    const result = await bash.run({ command: 'sleep 60 & echo $!' }, context);
    const childPid = Number(result.split('\n')[0]);
    expect(childPid).toBeGreaterThan(0);
    expect(await waitUntilDead(childPid)).toBe(true);
  });

  it('reports a command killed by a signal as such, with the output it wrote', async () => {
    expect(await bash.run({ command: 'echo last words; kill -KILL $$' }, context)).toBe(
      'last words\n\n[terminated by signal SIGKILL]',
    );
  });

  it('gives the command an empty stdin and none of the watchdog’s descriptors', async () => {
    // `cat` would wait forever on the watchdog's pipe; fd 3 is where the watchdog keeps it.
    expect(
      await bash.run(
        { command: 'cat; [ -e /proc/$$/fd/3 ] && echo fd 3 leaked; echo done' },
        context,
      ),
    ).toBe('done\n\n[exit code: 0]');
  });

  it('dies with the process that ran it, children that ignore SIGTERM included', async () => {
    const shellBeat = path.join(workspace, 'shell.beat');
    const childBeat = path.join(workspace, 'child.beat');
    const command = [
      'echo $$ > group.pid',
      `bash -c 'trap "" TERM HUP; ${heartbeatLoop('child.beat')}' &`,
      heartbeatLoop('shell.beat'),
    ].join('\n');
    // A separate Node process runs the tool, so the test can SIGKILL it: no finally, no exit
    // handler of its own runs, as when the OOM killer or `kill -9` takes a worker.
    const runner = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { createBashTool } = await import(${JSON.stringify(path.join(PROJECT_ROOT, 'src/tools/bash.ts'))});
        await createBashTool().run(${JSON.stringify({ command })}, {
          workspaceRoot: ${JSON.stringify(workspace)}, snapshot: {},
          signal: new AbortController().signal, heartbeat() {},
        });`,
      ],
      { cwd: PROJECT_ROOT, stdio: 'inherit' },
    );
    const runnerExited = new Promise((resolve) => runner.once('exit', resolve));
    const group = await waitForPid(path.join(workspace, 'group.pid'));
    groups.push(group);
    await growing([shellBeat, childBeat]);

    runner.kill('SIGKILL');
    await runnerExited;
    // Hang guard, not a speed claim: SIGTERM at once, SIGKILL after the 2 s grace.
    await stopGrowing([shellBeat, childBeat], 15_000);
    expect(groupMembers(group)).toEqual([]);
  });

  it('refuses to start when already cancelled, and refuses bad arguments', async () => {
    expect(await failure({ command: '' })).toBe("argument 'command' must be a non-empty string");
    expect(await failure({ command: 'true', timeout_seconds: 601 })).toBe(
      "argument 'timeout_seconds' must be an integer from 1 to 600",
    );
    controller.abort();
    expect(await failure({ command: 'touch ran' })).toBe(
      'command was not started: the call was cancelled',
    );
    await expect(fs.access(path.join(workspace, 'ran'))).rejects.toThrow();
  });
});
