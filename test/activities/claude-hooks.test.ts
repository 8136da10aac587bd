/**
 * Claude Code's hook contract, with real child processes running small scripts:
 * exit 2 blocks with stderr, JSON allow/deny/ask, the older decision form, a timeout, and
 * output far beyond the bound.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeputyConfig } from '../../src/config/schema.js';
import {
  runClaudeStopHooks,
  runPostToolHooks,
  runPreToolHooksActivity,
} from '../../src/activities/claude-hooks.js';
import { runHooks } from '../../src/activities/hooks.js';
import type { HookCommandRef } from '../../src/shared/capability-snapshot.js';
import { eventually } from '../support/eventually.js';

const call = { id: 'call-1', name: 'write', arguments: { path: 'a.txt', content: 'hi' } };

async function workspace(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'deputy-claude-hooks-'));
}

function claude(command: string, timeoutSeconds?: number): HookCommandRef {
  return { command, format: 'claude', ...(timeoutSeconds ? { timeoutSeconds } : {}) };
}

async function pre(hooks: HookCommandRef[], cwd?: string) {
  const dir = cwd ?? (await workspace());
  const config = { workspace: dir } as DeputyConfig;
  return runPreToolHooksActivity(
    config,
    { hooks, toolName: 'Write', call },
    new AbortController().signal,
  );
}

describe('Claude Code PreToolUse hooks', () => {
  it("get Claude Code's input JSON on stdin", async () => {
    const dir = await workspace();
    const answer = await pre([claude('cat > input.json')], dir);
    expect(answer).toEqual({ decision: null, reason: '', errors: [] });
    const input = JSON.parse(await readFile(join(dir, 'input.json'), 'utf8'));
    expect(input).toMatchObject({
      session_id: expect.any(String),
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_use_id: 'call-1',
      tool_input: { path: 'a.txt', content: 'hi', file_path: join(dir, 'a.txt') },
    });
  });

  it('exit 2 blocks, with stderr as the reason', async () => {
    const answer = await pre([claude('echo "no writes today" >&2; exit 2')]);
    expect(answer).toMatchObject({ decision: 'deny', reason: 'no writes today' });
  });

  it.each(['allow', 'deny', 'ask'] as const)('honours permissionDecision: %s', async (decision) => {
    const json = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: decision,
        permissionDecisionReason: `said ${decision}`,
      },
    });
    const answer = await pre([claude(`echo '${json}'`)]);
    expect(answer).toEqual({ decision, reason: `said ${decision}`, errors: [] });
  });

  it('reads the older decision: approve|block form', async () => {
    expect(await pre([claude(`echo '{"decision":"block","reason":"old no"}'`)])).toMatchObject({
      decision: 'deny',
      reason: 'old no',
    });
    expect(await pre([claude(`echo '{"decision":"approve"}'`)])).toMatchObject({
      decision: 'allow',
    });
  });

  it('the strictest answer wins, and a deny stops the rest', async () => {
    const dir = await workspace();
    const answer = await pre(
      [
        claude(`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`),
        claude(
          `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check"}}'`,
        ),
        claude('echo blocked >&2; exit 2'),
        claude('touch ran-after-deny'),
      ],
      dir,
    );
    expect(answer).toMatchObject({ decision: 'deny', reason: 'blocked' });
    await expect(readFile(join(dir, 'ran-after-deny'))).rejects.toThrow();
  });

  it('another exit code is a non-blocking error; plain stdout is no decision', async () => {
    const answer = await pre([claude('echo oops >&2; exit 1'), claude('echo just text')]);
    expect(answer.decision).toBeNull();
    expect(answer.errors).toEqual(['exited with code 1: oops']);
  });

  it('a hook past its timeout is killed and reported, without a decision', async () => {
    // The hook would sleep far past the test's own timeout: one left to run fails the test
    // instead of passing slowly, and its process would still be there to find.
    const answer = await pre([claude('sleep 307; echo outlived', 1)]);
    expect(answer.decision).toBeNull();
    expect(answer.errors[0]).toMatch(/timed out after 1 s/);
    await eventually(
      async () =>
        spawnSync('pgrep', ['-f', 'sleep 307']).stdout.toString() === '' ? true : undefined,
      'the timed-out hook to be gone',
    );
  });

  it('bounds huge output: stdout, stderr and the reason', async () => {
    const big = await pre([claude('head -c 5000000 /dev/zero | tr "\\0" x >&2; exit 2')]);
    expect(big.decision).toBe('deny');
    expect(big.reason.length).toBeLessThanOrEqual(2_000);
    const json = await pre([
      claude(
        `printf '{"hookSpecificOutput":{"permissionDecision":"allow","x":"'; head -c 5000000 /dev/zero | tr "\\0" x; printf '"}}'`,
      ),
    ]);
    expect(json.decision).toBeNull();
    expect(json.errors[0]).toMatch(/longer than 64000 characters/);
  });

  it("deputy's own form ignores Claude Code's hooks, and the other way round", async () => {
    const dir = await workspace();
    const hooks = { PreToolUse: [claude('exit 2'), { command: 'touch own-form-ran' }] };
    const options = { cwd: dir, signal: new AbortController().signal };
    expect(await runHooks(hooks, 'PreToolUse', {}, options)).toBeNull();
    expect(await readFile(join(dir, 'own-form-ran'), 'utf8')).toBe('');
  });
});

describe('Claude Code PostToolUse and Stop hooks', () => {
  it('PostToolUse gets tool_response; exit 2 and additionalContext reach the model', async () => {
    const dir = await workspace();
    const options = { cwd: dir, signal: new AbortController().signal };
    const notes = await runPostToolHooks(
      [
        claude('cat > post.json; echo "lint failed" >&2; exit 2'),
        claude(
          `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatted"}}'`,
        ),
      ],
      'Write',
      call,
      'wrote a.txt',
      options,
    );
    expect(notes).toBe('[PostToolUse hook: lint failed]\n[PostToolUse hook: formatted]');
    const input = JSON.parse(await readFile(join(dir, 'post.json'), 'utf8'));
    expect(input).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_response: { output: 'wrote a.txt' },
    });
  });

  it('Stop (SubagentStop) reports exit 2 and block as a failure', async () => {
    const dir = await workspace();
    const options = { cwd: dir, signal: new AbortController().signal };
    expect(await runClaudeStopHooks([claude('cat > stop.json')], options)).toBeNull();
    expect(JSON.parse(await readFile(join(dir, 'stop.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
    });
    expect(await runClaudeStopHooks([claude('echo "tests fail" >&2; exit 2')], options)).toBe(
      'echo "tests fail" >&2; exit 2: tests fail',
    );
  });
});
