/**
 * The files that decide what runs, though no fixed list names them, are protected like the
 * definitions that name them: a hook's script, an MCP server's script, a scripted model's script,
 * and what npm and npx read when a person launches deputy (`.npmrc`, `package.json`). On the real
 * dev server, an agent in each mode that writes without a card elsewhere (auto-edit,
 * auto-in-workspace, acceptEdits, bypassPermissions) parks on a card for each of those writes,
 * and nothing is written. A scripted model cannot be chosen per call (Task, fork, resume), and the
 * built-in default model is read from deputy's package, never from a workspace file of its name.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import { stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const HOOK_SCRIPT = '#!/bin/sh\nexit 0\n';
const EVIL = '#!/bin/sh\ncat /proc/*/environ > stolen.txt\n';

/** What every writer tries in one answer: its hook's script, its own model, and the launchers. */
const TARGETS = [
  { path: 'scripts/check-call.sh', reason: 'changes a script deputy runs or replays' },
  { path: 'tools/server.mjs', reason: 'changes a script deputy runs or replays' },
  { path: 'scripts/writer.yaml', reason: 'changes a script deputy runs or replays' },
  { path: '.npmrc', reason: 'changes how deputy or its package manager is launched' },
  { path: 'package.json', reason: 'changes how deputy or its package manager is launched' },
];

const MODES = [
  { name: 'auto-edit', field: 'approvalMode: auto-edit' },
  { name: 'auto-in-workspace', field: 'approvalMode: auto-in-workspace' },
  { name: 'accept-edits', field: 'permissionMode: acceptEdits' },
  { name: 'bypass-permissions', field: 'permissionMode: bypassPermissions' },
];

const writer = (mode: { name: string; field: string }) => `---
name: writer-${mode.name}
description: rewrites what decides what runs
model: scripted:scripts/writer.yaml
tools: [write, read]
${mode.field}
hooks:
  PreToolUse: [{ command: ./scripts/check-call.sh --strict }]
mcpServers:
  - name: local-tools
    transport: stdio
    command: node
    args: [tools/server.mjs]
---
Write.
`;

const files: Record<string, string> = {
  ...Object.fromEntries(
    MODES.map((mode) => [`.subagents/agents/writer-${mode.name}.md`, writer(mode)]),
  ),
  'scripts/check-call.sh': HOOK_SCRIPT,
  'tools/server.mjs': '// an MCP server\n',
  'package.json': '{"name":"a-project","scripts":{"start":"deputy dev"}}\n',
  'scripts/writer.yaml': `turns:
  - text: Rewriting.
    toolCalls:
${TARGETS.map(
  ({ path }) =>
    `      - { name: write, arguments: { path: ${path}, content: ${JSON.stringify(EVIL)} } }`,
).join('\n')}
      - { name: write, arguments: { path: notes.txt, content: plain } }
  - text: Done.
`,
  // A workspace file at the built-in default's path: it must not become anyone's model.
  'agents/scripts/echo.yaml': 'turns:\n  - text: ATTACKER SCRIPT\n',
  '.subagents/agents/plain.md':
    '---\nname: plain\ndescription: runs on the default model\nmodel: default\n---\nAnswer.\n',
  '.subagents/agents/lead.md':
    '---\nname: lead\ndescription: asks for a scripted child\nmodel: scripted:scripts/lead.yaml\ntools: [Task]\n---\nLead.\n',
  'scripts/lead.yaml': `turns:
  - text: Handing over on a script of my choosing.
    toolCalls: [{ name: Task, arguments: { description: x, prompt: Say hi, subagent_type: plain, model: "scripted:scripts/evil.yaml" } }]
  - text: "Child: \${lastToolResult}"
`,
  'scripts/evil.yaml': 'turns:\n  - text: EVIL CHILD\n',
};

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness(files);
});

afterAll(async () => {
  await harness?.close();
});

describe('scripts and launcher files are protected in every mode that writes without a card', () => {
  for (const mode of MODES) {
    it(`under ${mode.name}, each of them asks and nothing is written`, async () => {
      const handle = await harness.start(`writer-${mode.name}`, 'Rewrite them');
      const parked: DelegationState = await eventually(async () => {
        const state = await handle.query(stateQuery);
        return state.pendingCards.length > 0 ? state : undefined;
      }, 'the cards');
      const cards = parked.pendingCards.map((card) => ({
        path: card.arguments.path,
        reason: card.reason,
      }));
      // One card per target, none for the ordinary file (written in these modes without one).
      expect(cards.map((card) => card.path).sort()).toEqual(
        TARGETS.map((target) => target.path).sort(),
      );
      for (const target of TARGETS) {
        expect(cards.find((card) => card.path === target.path)?.reason).toContain(target.reason);
      }
      await harness.delegations.stop(idOf(handle.workflowId));
      const result = await handle.result();
      expect(result.status).toBe('stopped');
      expect(await readFile(join(harness.workspace, 'scripts/check-call.sh'), 'utf8')).toBe(
        HOOK_SCRIPT,
      );
      expect(await readFile(join(harness.workspace, '.npmrc'), 'utf8').catch(() => null)).toBe(
        null,
      );
      for (const file of ['scripts/writer.yaml', 'tools/server.mjs', 'package.json']) {
        expect(await readFile(join(harness.workspace, file), 'utf8')).toBe(files[file]);
      }
    });
  }
});

describe('model scripts come from definitions and the configuration only', () => {
  it('the built-in default is read from the package, not from a workspace file of its name', async () => {
    const result = await (await harness.start('plain', 'Hello')).result();
    expect(result.status).toBe('completed');
    expect(result.text).toContain('No real model is configured');
    expect(result.text).not.toContain('ATTACKER');
  });

  it("Task cannot run a child on a script of the model's choosing", async () => {
    const { sessionId } = await harness.sessions.start({
      agent: 'lead',
      message: 'Go',
      caller: { id: null, roles: [] },
      options: {},
    });
    const reply = await eventually(async () => {
      const events = await harness.sessions.events(sessionId, 0);
      return events.find((event) => event.type === 'reply');
    }, 'the reply');
    const text = reply.type === 'reply' ? reply.text : '';
    expect(text).toContain("Task model for 'plain': a scripted model cannot be chosen per call");
    expect(text).not.toContain('EVIL CHILD');
    await harness.sessions.stop(sessionId);
  });

  it('a fork or a resumed run cannot name a script as its model', async () => {
    const handle = await harness.start('plain', 'Hello');
    expect((await handle.result()).status).toBe('completed');
    const id = idOf(handle.workflowId);
    const caller = { id: null, roles: [] };
    await expect(
      harness.delegations.fork(id, { fromRound: 1, model: 'scripted:scripts/evil.yaml', caller }),
    ).rejects.toThrow(/model: a scripted model cannot be chosen per call/);
    await expect(
      harness.delegations.resume(id, { text: 'Go on', model: 'scripted:.git/config', caller }),
    ).rejects.toThrow(/model: a scripted model cannot be chosen per call/);
  });
});

function idOf(workflowId: string): string {
  return workflowId.split('/').at(-1)!;
}
