/**
 * Hooks in Claude Code's form on the real dev server: a PreToolUse hook that exits 2
 * blocks a call and the model reads its stderr; one answering `ask` opens a card on a call that
 * would otherwise run without one, and the card survives a worker restart.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import { decideCardUpdate, stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, eventually, recordHistory } from './support/harness.js';
import { killWorker, spawnWorker } from './support/worker-process.js';
import { useCleanups } from '../support/cleanups.js';

const cleanups = useCleanups();

const blockingAgent = {
  '.subagents/agents/guarded.md': `---
name: guarded
description: writes, behind a Claude Code hook
model: scripted:scripts/guarded.yaml
tools: [write, read]
approvalMode: full-access
hooks:
  PreToolUse:
    - matcher: "Write|Edit"
      hooks:
        - type: command
          command: 'cat > pre-input.json; echo "writes are frozen during the release" >&2; exit 2'
          timeout: 10
---
Write.
`,
  'scripts/guarded.yaml': `turns:
  - text: Writing.
    toolCalls: [{ name: write, arguments: { path: out.txt, content: hello } }]
  - text: "The hook said: \${lastToolResult}"
`,
};

const askingAgent = {
  '.subagents/agents/asker.md': `---
name: asker
description: a full-access agent whose hook asks first
model: scripted:scripts/asker.yaml
tools: [write]
approvalMode: full-access
hooks:
  PreToolUse:
    - matcher: Write
      hooks:
        - type: command
          command: >-
            echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a human checks every write"}}'
---
Write.
`,
  'scripts/asker.yaml': `turns:
  - text: Writing.
    toolCalls: [{ name: write, arguments: { path: approved.txt, content: approved } }]
  - text: Written.
`,
};

const allowingAgent = {
  '.subagents/agents/allower.md': `---
name: allower
description: a confirm-mode agent whose hook allows writes
model: scripted:scripts/allower.yaml
tools: [write]
approvalMode: confirm
hooks:
  PreToolUse:
    - matcher: Write
      hooks:
        - type: command
          command: >-
            echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'
---
Write.
`,
  'scripts/allower.yaml': `turns:
  - text: Writing both.
    toolCalls:
      - { name: write, arguments: { path: notes.txt, content: notes } }
      - { name: write, arguments: { path: .subagents/agents/new.md, content: sneaky } }
  - text: Done.
`,
};

const afterAgent = {
  '.subagents/agents/after.md': `---
name: after
description: Claude Code's PostToolUse and SubagentStop hooks
model: scripted:scripts/after.yaml
tools: [write]
approvalMode: full-access
hooks:
  PostToolUse:
    - matcher: Write
      hooks:
        - type: command
          command: 'cat > post-input.json; echo "lint: missing newline" >&2; exit 2'
    - matcher: Bash
      hooks: [{ type: command, command: 'touch bash-hook-ran' }]
  SubagentStop:
    - hooks: [{ type: command, command: 'cat > stop-input.json; echo "not done" >&2; exit 2' }]
---
Write.
`,
  'scripts/after.yaml': `turns:
  - text: Writing.
    toolCalls: [{ name: write, arguments: { path: out.txt, content: hello } }]
  - text: "Result: \${lastToolResult}"
`,
};

describe("Claude Code's hook form", () => {
  it('PostToolUse sees tool_response and the model reads its stderr; SubagentStop runs at the end', async () => {
    const harness = await createHarness(afterAgent);
    cleanups.push(() => harness.close());
    const handle = await harness.start('after', 'Write out.txt');
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.text).toContain('[PostToolUse hook: lint: missing newline]');
    expect(result.notice).toContain('Stop hook failed');
    expect(result.notice).toContain('not done');
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('hello');
    await expect(readFile(join(harness.workspace, 'bash-hook-ran'))).rejects.toThrow();
    const post = JSON.parse(await readFile(join(harness.workspace, 'post-input.json'), 'utf8'));
    expect(post).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_response: { success: true },
    });
    const stop = JSON.parse(await readFile(join(harness.workspace, 'stop-input.json'), 'utf8'));
    expect(stop).toMatchObject({ hook_event_name: 'SubagentStop', stop_hook_active: false });
  });

  it('a PreToolUse hook exiting 2 blocks the write, and the model reads its stderr', async () => {
    const harness = await createHarness(blockingAgent);
    cleanups.push(() => harness.close());
    const handle = await harness.start('guarded', 'Write out.txt');
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.text).toContain('writes are frozen during the release');
    expect(result.text).toContain("[tool 'write' denied] blocked by a PreToolUse hook");
    expect(result.deniedCalls).toEqual([
      {
        tool: 'write',
        by: 'policy',
        reason: 'blocked by a PreToolUse hook: writes are frozen during the release',
      },
    ]);
    await expect(readFile(join(harness.workspace, 'out.txt'))).rejects.toThrow();
    const input = JSON.parse(await readFile(join(harness.workspace, 'pre-input.json'), 'utf8'));
    expect(input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { path: 'out.txt', content: 'hello' },
      cwd: harness.workspace,
    });
  });

  it('a hook answering ask opens a card that survives a worker restart', async () => {
    const harness = await createHarness(askingAgent, { startWorker: false });
    cleanups.push(() => harness.close());
    const first = await spawnWorker(harness, cleanups);
    const handle = await harness.start('asker', 'Write approved.txt');
    const parked: DelegationState = await eventually(
      async () => {
        const state = await handle.query(stateQuery);
        return state.pendingCards.length === 1 ? state : undefined;
      },
      'a pending card',
      60_000,
    );
    expect(parked.pendingCards[0]).toMatchObject({
      tool: 'write',
      reason: 'a PreToolUse hook asks for approval: a human checks every write',
    });
    await expect(readFile(join(harness.workspace, 'approved.txt'))).rejects.toThrow();

    await killWorker(first);
    await spawnWorker(harness, cleanups);
    await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: parked.pendingCards[0]!.id, decision: 'approve' }],
    });

    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed', text: 'Written.' });
    expect(await readFile(join(harness.workspace, 'approved.txt'), 'utf8')).toBe('approved');
    await recordHistory(handle, 'claude-hook-ask');
  }, 120_000);

  it('a hook answering allow skips the card of confirm mode, but not for a protected path', async () => {
    const harness = await createHarness(allowingAgent);
    cleanups.push(() => harness.close());
    const handle = await harness.start('allower', 'Write two files');
    const parked: DelegationState = await eventually(
      async () => {
        const state = await handle.query(stateQuery);
        return state.pendingCards.length > 0 ? state : undefined;
      },
      'a pending card',
      60_000,
    );
    expect(parked.pendingCards).toHaveLength(1);
    expect(parked.pendingCards[0]!.arguments).toMatchObject({ path: '.subagents/agents/new.md' });
    await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: parked.pendingCards[0]!.id, decision: 'deny', reason: 'not that one' }],
    });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(await readFile(join(harness.workspace, 'notes.txt'), 'utf8')).toBe('notes');
    expect(result.deniedCalls).toEqual([{ tool: 'write', by: 'human', reason: 'not that one' }]);
  });
});
