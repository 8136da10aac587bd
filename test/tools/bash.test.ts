import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapabilitySnapshot } from '../../src/shared/capability-snapshot.js';
import { BASH_LIMITS, createBashTool } from '../../src/tools/bash.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { ToolError } from '../../src/tools/tool.js';

const bash = createBashTool();
let workspace: string;
let controller: AbortController;
let heartbeats: number;
let context: ToolContext;

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

/**
 * Running, not merely not yet reaped: an orphan killed by us stays a zombie until init gets
 * to it, and kill(pid, 0) still succeeds on a zombie. Linux /proc is what tells them apart.
 */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
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
    if (!isAlive(pid)) return true;
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
    const started = Date.now();
    const pending = failure({
      command: `echo before; sleep 60 & echo $! > child.pid; wait`,
      timeout_seconds: 2,
    });
    const childPid = await waitForPid(pidFile);
    expect(isAlive(childPid)).toBe(true);
    expect(await pending).toBe(
      'command timed out after 2 seconds and was killed. Output so far:\nbefore\n',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
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
