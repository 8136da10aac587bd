/**
 * MCP stdio servers die with the worker that started them: a real `deputy worker`
 * whose workspace configures the stubborn fixture server (it ignores the end of its stdin and
 * SIGTERM, and starts a child that ignores SIGTERM too) is SIGKILLed, and neither the server nor
 * its child is left running under PID 1. Before, the SDK's plain child process outlived it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import { stubbornStdioCommand } from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import { groupMembers, isRunning, killGroup } from '../support/processes.js';
import { DEPUTY_BIN } from './run-deputy.js';

const root = mkdtempSync(join(tmpdir(), 'deputy-mcp-group-'));
const workspace = join(root, 'workspace');
const pidFile = join(root, 'stubborn.pids');
const started: ChildProcess[] = [];
const groups: number[] = [];
/** The server and its child by pid too: a failing run (no group of their own) leaves them. */
const pids: number[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  for (const group of groups) killGroup(group);
  for (const pid of pids.filter(isRunning)) process.kill(pid, 'SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

describe('an MCP stdio server of a worker', () => {
  it('dies with the worker, SIGKILLed, its children included', async () => {
    mkdirSync(join(workspace, '.subagents'), { recursive: true });
    writeFileSync(
      join(workspace, '.subagents', 'config.yaml'),
      stringify({
        mcpServers: {
          stubborn: {
            transport: 'stdio',
            ...stubbornStdioCommand(),
            env: { FIXTURE_PID_FILE: pidFile },
          },
        },
      }),
    );
    const worker = spawn(
      process.execPath,
      [DEPUTY_BIN, '--workspace', workspace, '--data-dir', join(root, 'data'), 'worker'],
      {
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: inject('temporalAddress'),
          // Its own queue: it must take no other test's tasks.
          DEPUTY_TASK_QUEUE: `mcp-group-${randomUUID()}`,
          DEPUTY_USER_DIR: join(root, 'user'),
        },
      },
    );
    started.push(worker);
    let output = '';
    worker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => worker.once('exit', resolve));

    // The worker connects its configured servers as it starts; the server writes its pids once
    // it serves.
    const { pid, child } = await eventually(
      async () => {
        if (worker.exitCode !== null) throw new Error(`deputy worker exited:\n${output}`);
        const line = readFileSync(pidFile, 'utf8').trim().split('\n')[0] ?? '';
        const [server, grandchild] = line.split(' ').map(Number);
        return server && grandchild ? { pid: server, child: grandchild } : undefined;
      },
      'the stubborn MCP server to start',
      90_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; deputy worker printed:\n${output.slice(-3000)}`);
    });
    groups.push(pid);
    pids.push(pid, child);
    expect(isRunning(pid)).toBe(true);
    expect(isRunning(child)).toBe(true);

    worker.kill('SIGKILL');
    await exited;
    // Hang guard, not a speed claim: SIGTERM to the group at once, SIGKILL 2 s later.
    await eventually(
      async () =>
        isRunning(pid) || isRunning(child) || groupMembers(pid).length > 0 ? undefined : true,
      `the MCP server ${pid} and its child ${child} to end`,
      15_000,
    );
  }, 150_000);
});
