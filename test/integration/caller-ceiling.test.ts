/**
 * The caller's ceiling on a real Temporal dev server with a real
 * worker and real files: an `acceptEdits` agent (a Claude Code file, scripted model) started by
 * a caller in `plan` mode has its write and bash denied as in plan mode; started by a caller in
 * `bypassPermissions` it runs as its own `acceptEdits` (the lower of the two), so bash still
 * asks. A session's `Task` child runs under the session caller's mode. The state says which.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateLines } from '../../src/cli/format.js';
import { decideCardUpdate, stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const PLAN_DENIAL = (tool: string) =>
  `the agent is in plan mode (permissionMode plan): it is read-only, so '${tool}' may not change files or run commands; read what you need and present the plan in your answer`;

const files = {
  '.claude/agents/editor.md': `---
name: editor
description: edits and runs
model: scripted:scripts/editor.yaml
permissionMode: acceptEdits
tools: Read, Write, Bash
---
You are editor.
`,
  'scripts/editor.yaml': `turns:
  - text: Editing.
    toolCalls: [{ name: write, arguments: { path: src/edited.txt, content: "edited\\n" } }]
  - text: Running it.
    toolCalls: [{ name: bash, arguments: { command: "cat src/edited.txt" } }]
  - text: "Last: \${lastToolResult}"
`,
  '.subagents/agents/lead.md': `---
name: lead
description: hands the edit to the editor
model: scripted:scripts/lead.yaml
tools: [Task]
---
Lead.
`,
  'scripts/lead.yaml': `turns:
  - text: Asking the editor.
    toolCalls: [{ name: Task, arguments: { description: edit, prompt: Edit it, subagent_type: editor } }]
  - text: "Editor said: \${lastToolResult}"
`,
};

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness(files);
});

afterAll(async () => {
  await harness?.close();
});

const idOf = (workflowId: string) => workflowId.split('/').at(-1)!;

describe("a caller's permission mode caps the delegation", () => {
  it('acceptEdits agent, plan caller: the write and bash are denied as in plan mode, no card', async () => {
    const handle = await harness.start('editor', 'Edit and run', {
      session: 'caller-plan',
      callerMode: 'plan',
    });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.deniedCalls).toEqual([
      { tool: 'write', by: 'policy', reason: PLAN_DENIAL('write') },
      { tool: 'bash', by: 'policy', reason: PLAN_DENIAL('bash') },
    ]);
    expect(result.text).toBe(`Last: [tool 'bash' denied] ${PLAN_DENIAL('bash')}`);
    expect(existsSync(join(harness.workspace, 'src/edited.txt'))).toBe(false);

    // GET /delegations/:id and `deputy status` read this detail.
    const detail = await harness.delegations.get(idOf(handle.workflowId));
    expect(detail.pendingCards).toEqual([]);
    expect(detail.decidedCards).toEqual([]);
    expect(detail.permission).toEqual({
      approvalMode: 'confirm',
      policyFlags: { readOnly: true },
      callerMode: 'plan',
      agent: { approvalMode: 'auto-edit', policyFlags: {} },
      capped: true,
    });
    expect(stateLines(detail)).toContain(
      "  permission: approvalMode confirm, read-only (plan): capped by the caller's permission mode plan (the agent's own: approvalMode auto-edit)",
    );
  });

  it('acceptEdits agent, bypassPermissions caller: the agent’s mode is the lower, so bash asks', async () => {
    const handle = await harness.start('editor', 'Edit and run', {
      session: 'caller-bypass',
      callerMode: 'bypassPermissions',
    });
    const state = await eventually(async () => {
      const current = await handle.query(stateQuery);
      return current.pendingCards.length === 1 ? current : undefined;
    }, 'the bash card');
    const card = state.pendingCards[0]!;
    expect([card.tool, card.reason]).toEqual([
      'bash',
      "running commands with 'bash' needs approval under approvalMode auto-edit",
    ]);
    // The write ran without a card, as acceptEdits does.
    expect(readFileSync(join(harness.workspace, 'src/edited.txt'), 'utf8')).toBe('edited\n');
    expect(state.permission).toMatchObject({
      approvalMode: 'auto-edit',
      callerMode: 'bypassPermissions',
      agent: { approvalMode: 'auto-edit', policyFlags: {} },
      capped: false,
    });

    await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: card.id, decision: 'approve' }],
    });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.deniedCalls).toEqual([]);
    expect(result.text).toContain('edited');
  });

  it("a session's Task child runs under the session caller's mode", async () => {
    const { sessionId } = await harness.sessions.start({
      agent: 'lead',
      message: 'Get it edited.',
      caller: { id: null, roles: [] },
      options: { callerMode: 'plan' },
    });
    const session = await eventually(async () => {
      const current = await harness.sessions.get(sessionId);
      return current.tasks[0]?.result ? current : undefined;
    }, "the editor child's result");
    const task = session.tasks[0]!;
    expect(task.agent).toBe('editor');
    expect(task.result?.deniedCalls?.map((call) => [call.tool, call.reason])).toEqual([
      ['write', PLAN_DENIAL('write')],
      ['bash', PLAN_DENIAL('bash')],
    ]);
    expect(session.permission).toMatchObject({ callerMode: 'plan', approvalMode: 'confirm' });
    const child = await harness.delegations.get(task.taskId);
    expect(child.permission).toMatchObject({
      approvalMode: 'confirm',
      policyFlags: { readOnly: true },
      callerMode: 'plan',
      capped: true,
    });
    await harness.sessions.stop(sessionId);
  });
});
