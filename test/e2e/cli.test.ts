/**
 * The real `deputy` command (bin/deputy.mjs) as child processes against the global dev server:
 * a `deputy worker` process, then delegate / cards / approve / status like a user would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { DEPUTY_BIN, runDeputy, type Outcome } from './run-deputy.js';
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';

const workspace = mkdtempSync(join(tmpdir(), 'deputy-e2e-ws-'));
const dataDir = mkdtempSync(join(tmpdir(), 'deputy-e2e-data-'));
writeFileSync(join(workspace, 'README.md'), '# e2e workspace\n');
// An agent that declares `background: true`: `deputy delegate` returns at once for it.
mkdirSync(join(workspace, '.subagents/agents'), { recursive: true });
writeFileSync(
  join(workspace, '.subagents/agents/night-writer.md'),
  '---\nname: night-writer\ndescription: writes overnight\nmodel: scripted:night.yaml\ntools: [write]\nbackground: true\n---\nWrite.\n',
);
writeFileSync(
  join(workspace, 'night.yaml'),
  'turns:\n  - text: Writing.\n    toolCalls: [{ name: write, arguments: { path: night.txt, content: "x" } }]\n  - text: Done.\n',
);

function environment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    DEPUTY_WORKSPACE: workspace,
    DEPUTY_DATA_DIR: dataDir,
    DEPUTY_USER_DIR: join(workspace, '.user-config'),
    ...extra,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  return env;
}

function deputy(args: string[], env = environment()): Promise<Outcome> {
  return runDeputy(args, { env, cwd: workspace });
}

function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  return eventually(probe, what, timeoutMs, 250);
}

let worker: ChildProcess;
let workerLog = '';

beforeAll(async () => {
  worker = spawn(process.execPath, [DEPUTY_BIN, 'worker'], { env: environment(), cwd: workspace });
  worker.stdout?.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
  worker.stderr?.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
  await until(
    async () => (workerLog.includes('worker polling') ? true : undefined),
    'the worker to start',
    120_000,
  );
});

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
});

describe('deputy CLI end to end', () => {
  it('returns at once for an agent that declares background: true, as for --background', async () => {
    const session = `e2e-${randomUUID().slice(0, 8)}`;
    const started = await deputy([
      'delegate',
      'night-writer',
      'Write tonight',
      '--session',
      session,
    ]);
    expect(started.code, started.stderr).toBe(0);
    const delegationId = started.stdout.trim();
    expect(delegationId).toMatch(/^d-[0-9a-z]{12}$/);
    expect(started.stderr).toContain(`deputy status ${delegationId}`);
    // It returned while the delegation waits on its card: nobody approved the write.
    const [card] = await until(async () => {
      const cards = JSON.parse(
        (await deputy(['cards', '--session', session, '--json'])).stdout,
      ) as ApprovalCard[];
      return cards.length > 0 ? cards : undefined;
    }, 'its pending card');
    expect(card).toMatchObject({ delegationId, tool: 'write' });
    expect((await deputy(['stop', delegationId])).code).toBe(0);
  });

  it('delegates in the background, lists the card, approves it, and shows the result', async () => {
    const session = `e2e-${randomUUID().slice(0, 8)}`;
    const started = await deputy([
      'delegate',
      'demo',
      'Greet the e2e workspace',
      '--background',
      '--json',
      '--session',
      session,
    ]);
    expect(started.code, started.stderr).toBe(0);
    const { delegationId } = JSON.parse(started.stdout) as { delegationId: string };
    expect(delegationId).toMatch(/^d-[0-9a-z]{12}$/);

    const [card] = await until(async () => {
      const listed = await deputy(['cards', '--session', session, '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const cards = JSON.parse(listed.stdout) as ApprovalCard[];
      return cards.length > 0 ? cards : undefined;
    }, 'a pending card');
    expect(card).toMatchObject({ delegationId, tool: 'write', state: { status: 'pending' } });

    const human = await deputy(['cards', '--session', session]);
    expect(human.stdout).toContain(`deputy approve ${card!.id}`);

    const approved = await deputy(['approve', card!.id, '--reason', 'looks fine']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('approved');

    const state = await until(async () => {
      const status = await deputy(['status', delegationId, '--json']);
      expect(status.code, status.stderr).toBe(0);
      const parsed = JSON.parse(status.stdout) as DelegationState;
      return parsed.result ? parsed : undefined;
    }, 'completion');
    expect(state.status).toBe('completed');
    expect(state.decidedCards).toMatchObject([
      { id: card!.id, state: { status: 'approved', reason: 'looks fine' } },
    ]);
    expect(existsSync(join(workspace, 'hello.txt'))).toBe(true);

    const twice = await deputy(['approve', card!.id]);
    expect(twice.code).toBe(4);
    expect(twice.stderr).toContain('already approved');

    const stopped = await deputy(['stop', delegationId, '--json']);
    expect(stopped.code).toBe(0);
    expect(JSON.parse(stopped.stdout)).toEqual({ alreadyFinished: true, status: 'completed' });

    const listed = await deputy(['list', '--session', session, '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ delegationId, status: 'completed' }]);
  });

  it('follows a foreground delegation and exits 1 when a call was denied (unattended)', async () => {
    const run = await deputy([
      'delegate',
      'demo',
      'Greet, nobody watching',
      '--unattended',
      '--session',
      'e2e-fg',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/started demo/);
    expect(run.stderr).toMatch(/round 1: .*-> read/);
    expect(run.stderr).toContain('tool call(s) were denied: write');
    expect(run.stdout).toContain('status: completed after 3 round(s), 1 tool call(s) denied');
    expect(run.stdout).toMatch(/denied write \(by policy\): .*unattended/);
  });

  it('answers an unknown card or delegation with exit 3 and a clear message', async () => {
    const card = await deputy(['approve', 'd-unknown000.1']);
    expect(card.code).toBe(3);
    expect(card.stderr).toContain("no approval card with id 'd-unknown000.1'");
    const delegation = await deputy(['status', 'd-unknown000']);
    expect(delegation.code).toBe(3);
    expect(delegation.stderr).toContain("no delegation with id 'd-unknown000'");
  });

  it('exits 5 with a hint when no Temporal server is known, and 2 on a usage error', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'deputy-e2e-empty-'));
    const unreachable = await deputy(
      ['list'],
      environment({ TEMPORAL_ADDRESS: undefined, DEPUTY_DATA_DIR: empty }),
    );
    expect(unreachable.code).toBe(5);
    expect(unreachable.stderr).toContain('deputy dev');
    const usage = await deputy(['approve']);
    expect(usage.code).toBe(2);
  });

  it('stops the worker cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
