/**
 * Claude Code's permissionMode on a real Temporal dev server with a real worker and real files:
 * Claude Code agent files in `.claude/agents`, scripted models, the real policy and
 * tools. `plan` denies a write and the model reads why; `acceptEdits` writes without a card and
 * asks for bash.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideCardUpdate, stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

function claudeAgent(name: string, frontmatter: string, script: string): Record<string, string> {
  return {
    [`.claude/agents/${name}.md`]: `---\nname: ${name}\ndescription: test agent ${name}\nmodel: scripted:scripts/${name}.yaml\n${frontmatter}\n---\nYou are ${name}.\n`,
    [`scripts/${name}.yaml`]: script,
  };
}

const files = {
  ...claudeAgent(
    'planner',
    'permissionMode: plan\ntools: Read, Write',
    `turns:
  - text: Writing the plan down.
    toolCalls: [{ name: write, arguments: { path: plan.md, content: "step 1\\n" } }]
  - text: "I was told: \${lastToolResult}"
`,
  ),
  ...claudeAgent(
    'editor',
    'permissionMode: acceptEdits\ntools: Read, Write, Bash',
    `turns:
  - text: Editing.
    toolCalls: [{ name: write, arguments: { path: src/edited.txt, content: "edited\\n" } }]
  - text: Running it.
    toolCalls: [{ name: bash, arguments: { command: "cat src/edited.txt" } }]
  - text: "Ran: \${lastToolResult}"
`,
  ),
};

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness(files);
});

afterAll(async () => {
  await harness?.close();
});

describe('permissionMode from a Claude Code agent file', () => {
  it('plan: a write is denied without a card and the model reads that it is in plan mode', async () => {
    const handle = await harness.start('planner', 'Plan the change', { session: 'plan' });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.text).toBe(
      "I was told: [tool 'write' denied] the agent is in plan mode (permissionMode plan): it is read-only, so 'write' may not change files or run commands; read what you need and present the plan in your answer",
    );
    expect(existsSync(join(harness.workspace, 'plan.md'))).toBe(false);
    const state = await handle.query(stateQuery);
    expect(state.pendingCards).toEqual([]);
    expect(state.decidedCards).toEqual([]);
  });

  it('acceptEdits: the write runs without a card, bash asks for one', async () => {
    const handle = await harness.start('editor', 'Edit and run', { session: 'accept-edits' });
    const state = await eventually(async () => {
      const current = await handle.query(stateQuery);
      return current.pendingCards.length === 1 ? current : undefined;
    }, 'the bash card');
    expect(state.status).toBe('parked');
    expect(state.decidedCards).toEqual([]);
    const card = state.pendingCards[0]!;
    expect([card.tool, card.reason]).toEqual([
      'bash',
      "running commands with 'bash' needs approval under approvalMode auto-edit",
    ]);
    // The write ran in the turn before, with no card.
    expect(readFileSync(join(harness.workspace, 'src/edited.txt'), 'utf8')).toBe('edited\n');

    await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: card.id, decision: 'approve' }],
    });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.text).toContain('edited');
  });
});
