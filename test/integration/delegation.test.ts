/**
 * The delegation workflow on a real Temporal dev server with a real worker. The model is the
 * scripted model (the one scripted part); tools, files and Temporal are real.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import {
  decideCardSignal,
  decideCardUpdate,
  stateQuery,
} from '../../src/shared/workflow-contract/messages.js';
import { createHarness, eventually, recordHistory, type Harness } from './support/harness.js';

function agent(name: string, frontmatter: string, script: string): Record<string, string> {
  return {
    [`.subagents/agents/${name}.md`]: `---\nname: ${name}\ndescription: test agent ${name}\nmodel: scripted:scripts/${name}.yaml\n${frontmatter}\n---\nYou are ${name}.\n`,
    [`scripts/${name}.yaml`]: script,
  };
}

const files = {
  'notes.txt': 'teh quick brown fox\n',
  ...agent(
    'fixer',
    'approvalMode: auto-edit\ntools: [read, edit]',
    `turns:
  - text: Reading the notes.
    toolCalls: [{ name: read, arguments: { path: notes.txt } }]
  - text: Fixing the typo.
    toolCalls: [{ name: edit, arguments: { path: notes.txt, old_string: teh, new_string: the } }]
  - text: Fixed one typo in notes.txt.
`,
  ),
  ...agent(
    'writer',
    'tools: [read, write]',
    `turns:
  - text: Writing the greeting.
    toolCalls: [{ name: write, arguments: { path: hello.txt, content: "hi\\n" } }]
  - text: Done writing.
`,
  ),
  ...agent(
    'pair-writer',
    'tools: [write]',
    `turns:
  - text: Two files, please.
    toolCalls:
      - { name: write, arguments: { path: a.txt, content: a } }
      - { name: write, arguments: { path: b.txt, content: b } }
  - text: Wrote both.
`,
  ),
  ...agent(
    'looper',
    'maxTurns: 2\napprovalMode: full-access\ntools: [read, write]',
    `turns:
  - text: First look.
    toolCalls: [{ name: read, arguments: { path: notes.txt } }]
  - text: Now I would write.
    toolCalls: [{ name: write, arguments: { path: never.txt, content: should not exist } }]
  - text: unreachable
`,
  ),
  ...agent(
    'wanderer',
    'approvalMode: full-access\ntools: [read]',
    `turns:
  - text: Trying things I was not given.
    toolCalls:
      - { name: bash, arguments: { command: "touch pwned.txt" } }
      - { name: read, arguments: { path: ../outside.txt } }
      - { name: read, arguments: { path: missing.txt } }
  - text: Could not do it.
`,
  ),
  ...agent(
    'sleeper',
    'approvalMode: full-access\ntools: [bash]',
    `turns:
  - text: Starting a long job.
    toolCalls: [{ name: bash, arguments: { command: "echo started > started.txt; sleep 31.4159; echo late > late.txt" } }]
  - text: Job finished.
`,
  ),
};

const BIG_FILE = `${Array.from({ length: 300 }, (_, index) => `filler line ${index}`).join('\n')}\nTAIL-MARKER-42\n`;
Object.assign(files, {
  'big.txt': BIG_FILE,
  ...agent(
    'copier',
    'approvalMode: auto-edit\ntools: [read, write]',
    `turns:
  - text: Reading the big file.
    toolCalls: [{ name: read, arguments: { path: big.txt } }]
  - text: Copying what I read.
    toolCalls: [{ name: write, arguments: { path: copy.txt, content: "\${lastToolResult}" } }]
  - text: Copied.
`,
  ),
});

Object.assign(files, {
  'secret.txt': 'do not read\n',
  ...agent(
    'hooked',
    `tools: [read]
hooks:
  PreToolUse:
    - command: 'case "$(cat)" in *secret.txt*) echo "secret.txt is off limits" >&2; exit 2;; esac'
  PostToolUse:
    - command: 'cat >> post-hook.log; echo >> post-hook.log'
  Stop:
    - command: 'cat > stop-hook.json'`,
    `turns:
  - text: Reading both.
    toolCalls:
      - { name: read, arguments: { path: secret.txt } }
      - { name: read, arguments: { path: notes.txt } }
  - text: Read what I was allowed to.
`,
  ),
});

Object.assign(
  files,
  agent(
    'rememberer',
    'memory: private\ntools: [read]',
    `turns:
  - text: Noting a fact.
    toolCalls: [{ name: memory_write, arguments: { name: facts, content: the sky is green } }]
  - text: Reading it back.
    toolCalls: [{ name: memory_read, arguments: { name: facts } }]
  - text: Remembered.
`,
  ),
);

const MARATHON_ROUNDS = 220;
Object.assign(
  files,
  agent(
    'marathon',
    `approvalMode: confirm\ntools: [read]\nmaxTurns: ${MARATHON_ROUNDS + 5}`,
    `turns:\n${Array.from(
      { length: MARATHON_ROUNDS },
      (_, index) =>
        `  - text: lap ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: notes.txt, limit: 1 } }]`,
    ).join('\n')}\n  - text: finished the marathon\n`,
  ),
);

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness(files);
});

afterAll(async () => {
  await harness?.close();
});

async function parkedState(handle: WorkflowHandle, cards: number): Promise<DelegationState> {
  return eventually(async () => {
    const state = await handle.query(stateQuery);
    return state.pendingCards.length === cards ? state : undefined;
  }, `${cards} pending card(s)`);
}

describe('delegation workflow', () => {
  it('runs scripted turns through real tools to a final answer', async () => {
    const handle = await harness.start('fixer', 'Fix the typo in notes.txt');
    const result = await handle.result();
    expect(result).toEqual({
      status: 'completed',
      text: 'Fixed one typo in notes.txt.',
      notice: null,
      roundsUsed: 3,
      deniedCalls: [],
      // The scripted model's deterministic counts, one per model call.
      usage: {
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
        cachedInputTokens: 0,
        modelCalls: 3,
        modelCallsWithoutUsage: 0,
      },
    });
    // Each round sends the transcript so far, so the input grows past the output.
    expect(result.usage!.inputTokens).toBeGreaterThan(result.usage!.outputTokens);
    expect(result.usage!.outputTokens).toBeGreaterThan(0);
    expect(readFileSync(join(harness.workspace, 'notes.txt'), 'utf8')).toBe(
      'the quick brown fox\n',
    );
    const state = await handle.query(stateQuery);
    expect(state.status).toBe('completed');
    expect(state.transcriptSummary[2]).toMatch(/^read: 1\s+teh quick brown fox/);
    await recordHistory(handle, 'happy-path');
  });

  it('parks a write on a card and runs it after approval', async () => {
    const handle = await harness.start('writer', 'Say hi');
    const state = await parkedState(handle, 1);
    expect(state.status).toBe('parked');
    const card = state.pendingCards[0]!;
    expect(card).toMatchObject({
      tool: 'write',
      agent: 'writer',
      session: 'test',
      arguments: { path: 'hello.txt' },
    });
    expect(card.reason).toMatch(/approval/i);
    expect(existsSync(join(harness.workspace, 'hello.txt'))).toBe(false);

    const decided = await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: card.id, decision: 'approve', decidedBy: 'tester' }],
    });
    expect(decided.state.status).toBe('approved');
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(readFileSync(join(harness.workspace, 'hello.txt'), 'utf8')).toBe('hi\n');
    await recordHistory(handle, 'approve');

    // Deciding the same card again is an error to the caller, not a silent no-op.
    await expect(
      handle.executeUpdate(decideCardUpdate, { args: [{ cardId: card.id, decision: 'deny' }] }),
    ).rejects.toThrow();
  });

  it('on deny the tool does not run and the model sees the reason', async () => {
    const handle = await harness.start('writer', 'Say hi elsewhere', { session: 'deny-session' });
    const state = await parkedState(handle, 1);
    await handle.signal(decideCardSignal, {
      cardId: state.pendingCards[0]!.id,
      decision: 'deny',
      reason: 'not in this folder',
    });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    // Completed, but not as asked: the result says which call a human refused.
    expect(result.deniedCalls).toEqual([
      { tool: 'write', by: 'human', reason: 'not in this folder' },
    ]);
    const after = await handle.query(stateQuery);
    expect(after.deniedCalls).toEqual(result.deniedCalls);
    expect(after.transcriptSummary).toContain(
      "write (error): [tool 'write' denied] not in this folder",
    );
    expect(after.decidedCards[0]!.state).toMatchObject({
      status: 'denied',
      reason: 'not in this folder',
    });
  });

  it('rejects an unknown card through the update validator', async () => {
    const handle = await harness.start('writer', 'Say hi again');
    await parkedState(handle, 1);
    const error = await handle
      .executeUpdate(decideCardUpdate, { args: [{ cardId: 'nope.1', decision: 'approve' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((error as WorkflowUpdateFailedError).cause?.message).toBe('unknown card nope.1');
    await handle.cancel();
    expect((await handle.result()).status).toBe('stopped');
  });

  it('TaskStop while parked on two cards denies both and returns the partial result', async () => {
    const handle = await harness.start('pair-writer', 'Write a and b');
    const state = await parkedState(handle, 2);
    expect(state.pendingCards.map((card) => card.tool)).toEqual(['write', 'write']);
    await handle.cancel();
    const result = await handle.result();
    expect(result.status).toBe('stopped');
    expect(result.text).toBe('Two files, please.');
    expect(result.notice).toMatch(/TaskStop/);
    const after = await handle.query(stateQuery);
    expect(after.pendingCards).toEqual([]);
    expect(after.decidedCards.map((card) => card.state)).toEqual([
      expect.objectContaining({ status: 'denied', reason: 'stopped' }),
      expect.objectContaining({ status: 'denied', reason: 'stopped' }),
    ]);
    expect(existsSync(join(harness.workspace, 'a.txt'))).toBe(false);
    expect(existsSync(join(harness.workspace, 'b.txt'))).toBe(false);
    await recordHistory(handle, 'stop-two-cards');
  });

  it('TaskStop cancels a running tool: its process is killed and the run stops', async () => {
    const handle = await harness.start('sleeper', 'Run the long job');
    await eventually(
      async () => (existsSync(join(harness.workspace, 'started.txt')) ? true : undefined),
      'the long job to start',
    );
    await handle.cancel();
    const result = await handle.result();
    expect(result.status).toBe('stopped');
    // Killed, not waited for: no sleep left, and the line it would write after it is not there.
    const survivors = spawnSync('pgrep', ['-f', 'sleep 31.4159']);
    expect(survivors.stdout.toString()).toBe('');
    expect(existsSync(join(harness.workspace, 'late.txt'))).toBe(false);
  });

  it('a definition edited during a run changes nothing for that run', async () => {
    const path = join(harness.workspace, '.subagents/agents/writer.md');
    const original = readFileSync(path);
    const handle = await harness.start('writer', 'Say hi before the edit', { session: 'edit' });
    const parked = await parkedState(handle, 1);
    expect(parked.definitionHash).toBe(createHash('sha256').update(original).digest('hex'));

    writeFileSync(path, original.toString().replace('tools: [read, write]', 'tools: [read]'));
    await harness.registry.reload();
    await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: parked.pendingCards[0]!.id, decision: 'approve' }],
    });
    expect((await handle.result()).status).toBe('completed');
    const summary = (await handle.query(stateQuery)).transcriptSummary.join('\n');
    expect(summary).not.toContain("You don't have a tool named 'write'");

    // A delegation started after the edit resolves the new revision: no write tool at all.
    const later = await harness.start('writer', 'Say hi after the edit', { session: 'edit' });
    expect((await later.result()).status).toBe('completed');
    const laterState = await later.query(stateQuery);
    expect(laterState.definitionHash).not.toBe(parked.definitionHash);
    expect(laterState.transcriptSummary.join('\n')).toContain(
      "[tool 'write' denied] You don't have a tool named 'write'. Your tools: read.",
    );
    writeFileSync(path, original);
    await harness.registry.reload();
  });

  it("roles travel: a caller without the admin role never gets the agent's write tools", async () => {
    const handle = await harness.start('writer', 'Say hi as a reader', {
      caller: { id: 'reader-user', roles: ['reader'] },
    });
    expect((await handle.result()).status).toBe('completed');
    const state = await handle.query(stateQuery);
    expect(state.decidedCards).toEqual([]);
    expect(state.transcriptSummary.join('\n')).toContain(
      "[tool 'write' denied] You don't have a tool named 'write'. Your tools: read.",
    );
  });

  it('a long run continues-as-new under the history limit and keeps its whole state', async () => {
    const handle = await harness.start('marathon', 'Run every lap', {
      caller: { id: 'marathon-owner', roles: ['admin'] },
    });
    const result = await handle.result();
    expect(result).toEqual({
      status: 'completed',
      text: 'finished the marathon',
      notice: null,
      roundsUsed: MARATHON_ROUNDS + 1,
      deniedCalls: [],
      // Carried across every continue-as-new: one count per model call of all the runs.
      usage: expect.objectContaining({
        modelCalls: MARATHON_ROUNDS + 1,
        modelCallsWithoutUsage: 0,
      }),
    });
    const runs: string[] = [];
    for await (const run of harness.client.workflow.list({
      query: `WorkflowId = '${handle.workflowId}'`,
    })) {
      runs.push(run.status.name);
    }
    expect(runs).toContain('CONTINUED_AS_NEW');
    expect(runs).toContain('COMPLETED');
    // The last run still knows who started the delegation: stop and card rights depend on it.
    expect((await handle.describe()).memo).toMatchObject({ startedBy: 'marathon-owner' });
    const state = await handle.query(stateQuery);
    // The transcript crossed the hand-over whole: the task, then every lap and its read.
    expect(state.transcriptSummary).toHaveLength(1 + MARATHON_ROUNDS * 2 + 1);
    expect(state.transcriptSummary[0]).toBe('user: Run every lap');
  }, 120_000);

  it('a large tool result stays out of history; the model still sees all of it', async () => {
    const handle = await harness.start('copier', 'Copy big.txt');
    expect((await handle.result()).status).toBe('completed');
    // The model saw the whole result: its copy holds the last line.
    expect(readFileSync(join(harness.workspace, 'copy.txt'), 'utf8')).toContain('TAIL-MARKER-42');

    const { events } = await handle.fetchHistory();
    const decode = (payload: { data?: Uint8Array | null } | undefined): unknown =>
      JSON.parse(Buffer.from(payload?.data ?? new Uint8Array()).toString('utf8'));
    // A read runs as a local activity: its result is in a marker, not an ActivityTaskCompleted.
    const toolResults = (events ?? [])
      .map(
        (event) =>
          event.activityTaskCompletedEventAttributes?.result?.payloads?.[0] ??
          event.markerRecordedEventAttributes?.details?.result?.payloads?.[0],
      )
      .filter((payload) => payload !== undefined)
      .map((payload) => decode(payload) as { content?: string; blob?: { chars: number } });
    const offloaded = toolResults.find((result) => result.blob !== undefined);
    expect(offloaded?.blob?.chars).toBeGreaterThan(2048);
    expect(offloaded?.content).not.toContain('TAIL-MARKER-42');
    expect(offloaded?.content).toMatch(/\[preview: 2048 of \d+ characters/);
    const modelInputs = (events ?? [])
      .filter(
        (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel',
      )
      .map(
        (event) =>
          decode(event.activityTaskScheduledEventAttributes?.input?.payloads?.[0]) as {
            transcript: Array<{ role: string; content: string }>;
          },
      );
    expect(modelInputs).toHaveLength(3);
    for (const input of modelInputs) {
      for (const entry of input.transcript.filter((item) => item.role === 'tool')) {
        expect(entry.content).not.toContain('TAIL-MARKER-42');
      }
    }
  });

  it('runs definition hooks: PreToolUse blocks with its stderr, PostToolUse and Stop see the call', async () => {
    const handle = await harness.start('hooked', 'Read the files');
    expect((await handle.result()).status).toBe('completed');
    const summary = (await handle.query(stateQuery)).transcriptSummary.join('\n');
    expect(summary).toContain(
      "read (error): [tool 'read' blocked by a PreToolUse hook] secret.txt is off limits",
    );
    expect(summary).toMatch(/read: 1\s+\S+ quick brown fox/);
    const postLog = readFileSync(join(harness.workspace, 'post-hook.log'), 'utf8')
      .trim()
      .split('\n');
    expect(postLog).toHaveLength(1);
    expect(JSON.parse(postLog[0]!)).toMatchObject({
      event: 'PostToolUse',
      tool: 'read',
      arguments: { path: 'notes.txt' },
    });
    expect(JSON.parse(readFileSync(join(harness.workspace, 'stop-hook.json'), 'utf8'))).toEqual({
      event: 'Stop',
      agent: 'hooked',
      status: 'completed',
      text: 'Read what I was allowed to.',
    });
  });

  it("memory: writes land in the agent's own directory without a card, and read back", async () => {
    const handle = await harness.start('rememberer', 'Remember a fact');
    expect((await handle.result()).status).toBe('completed');
    const state = await handle.query(stateQuery);
    expect(state.decidedCards).toEqual([]);
    expect(state.transcriptSummary.join('\n')).toMatch(/memory_read: .*the sky is green/);
    const file = join(harness.config.dataDir, 'memory/agents/rememberer/facts.md');
    expect(readFileSync(file, 'utf8')).toContain('the sky is green');
  });

  it('unattended: an ask becomes a deny at once, saying no human will answer', async () => {
    const handle = await harness.start('writer', 'Say hi unattended', { unattended: 'deny' });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.deniedCalls).toMatchObject([
      { tool: 'write', by: 'policy', reason: expect.stringMatching(/unattended/) },
    ]);
    const after = await handle.query(stateQuery);
    expect(after.decidedCards).toEqual([]);
    expect(after.transcriptSummary.join('\n')).toMatch(
      /write \(error\): \[tool 'write' denied\].*unattended: no huma/,
    );
  });

  it('maxTurns ends the run with a notice and does not run the next call', async () => {
    const handle = await harness.start('looper', 'Loop');
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.roundsUsed).toBe(2);
    expect(result.notice).toMatch(/maxTurns \(2\).*write.*not run/);
    expect(existsSync(join(harness.workspace, 'never.txt'))).toBe(false);
    await recordHistory(handle, 'max-turns');
  });

  it('undeclared tools and escaping paths come back to the model as plain refusals', async () => {
    const handle = await harness.start('wanderer', 'Wander');
    const result = await handle.result();
    expect(result.status).toBe('completed');
    // The undeclared tool is a policy denial; the escaping reads failed in the tool itself.
    expect(result.deniedCalls?.map((call) => [call.tool, call.by])).toEqual([['bash', 'policy']]);
    const summary = (await handle.query(stateQuery)).transcriptSummary.join('\n');
    expect(summary).toContain(
      "bash (error): [tool 'bash' denied] You don't have a tool named 'bash'. Your tools: read.",
    );
    expect(summary).toMatch(/read \(error\): \[tool 'read' failed\] .*escapes the workspace/);
    expect(summary).toMatch(/read \(error\): \[tool 'read' failed\] .*missing\.txt/);
    expect(existsSync(join(harness.workspace, 'pwned.txt'))).toBe(false);
  });

  it('an unknown agent fails the delegation with a clear notice', async () => {
    const handle = await harness.start('no-such-agent', 'Anything');
    await expect(handle.result()).rejects.toThrow();
    const state = await handle.query(stateQuery);
    expect(state.status).toBe('failed');
    expect(state.result?.notice).toMatch(/no agent named 'no-such-agent'/);
  });
});
