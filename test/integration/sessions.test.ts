/**
 * Sessions and nested delegation on a real dev server with scripted
 * models: a main agent delegates in the foreground and in the background; the background
 * child's card reaches the session's stream and is decided from there; TaskOutput, TaskStop and
 * stopping the session behave as the spec says.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentResolver } from '../../src/worker/agent-resolver.js';
import type { DelegationEvent } from '../../src/shared/delegation.js';
import { eventually, createHarness, recordHistory, type Harness } from './support/harness.js';
import {
  FOREGROUND_THEN_BACKGROUND,
  leadAgent,
  readerAgent,
  writerAgent,
} from './support/session-agents.js';

let harness: Harness;

/** A main agent named `name` with scripted `turns`. */
function mainAgent(name: string, turns: string, maxTurns = 20): Record<string, string> {
  return {
    [`.subagents/agents/${name}.md`]: `---\nname: ${name}\ndescription: ${name} main agent\nmodel: scripted:scripts/${name}.yaml\ntools: [Task]\nmaxTurns: ${maxTurns}\n---\nLead.\n`,
    [`scripts/${name}.yaml`]: `turns:\n${turns}`,
  };
}

const START_WRITER = `  - text: Starting the writer.
    toolCalls: [{ name: Task, arguments: { description: write out, prompt: Write out.txt, subagent_type: writer, run_in_background: true } }]
`;

beforeAll(async () => {
  harness = await createHarness({
    ...readerAgent,
    ...writerAgent,
    ...leadAgent(FOREGROUND_THEN_BACKGROUND),
    // TaskStop while the writer waits on its card.
    ...mainAgent(
      'stopper',
      `${START_WRITER}  - text: Checking on it.
    toolCalls: [{ name: TaskOutput, arguments: { task_id: "\${lastTaskId}", timeout: 2000 } }]
  - text: Stopping it.
    toolCalls: [{ name: TaskStop, arguments: { task_id: "\${lastTaskId}" } }]
  - text: "Stopped: \${lastToolResult}"
`,
    ),
    // Waits on the writer in the foreground: the session is stopped while the writer is parked.
    ...mainAgent(
      'waiter',
      `  - text: Asking the writer.
    toolCalls: [{ name: Task, arguments: { description: write out, prompt: Write out.txt, subagent_type: writer } }]
  - text: Done.
`,
    ),
    // Starts the writer and answers: the session idles with its child parked.
    ...mainAgent('starter', `${START_WRITER}  - text: The writer runs in the background.\n`),
    // model: inherit runs on the session's model; Task's own `model` must be runnable.
    ...mainAgent(
      'inheritor',
      `  - text: Asking the copycat.
    toolCalls: [{ name: Task, arguments: { description: inherit, prompt: Say hi, subagent_type: copycat } }]
  - text: Asking the reader on another model.
    toolCalls: [{ name: Task, arguments: { description: bad model, prompt: Read, subagent_type: reader, model: nope/none } }]
  - text: "Both asked. \${lastToolResult}"
`,
    ),
    '.subagents/agents/copycat.md':
      '---\nname: copycat\ndescription: runs on its parent model\nmodel: inherit\ntools: [read]\n---\nCopy.\n',
    // A delegate that lists Task, and whose model calls it anyway.
    '.subagents/agents/sneaky.md':
      '---\nname: sneaky\ndescription: tries to delegate\nmodel: scripted:scripts/sneaky.yaml\ntools: [read, Task]\n---\nSneak.\n',
    'scripts/sneaky.yaml': `turns:
  - text: Delegating further.
    toolCalls: [{ name: Task, arguments: { description: x, prompt: Write out.txt, subagent_type: writer } }]
  - text: "Could not: \${lastToolResult}"
`,
  });
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

async function eventsOf(sessionId: string): Promise<DelegationEvent[]> {
  return harness.sessions.events(sessionId, 0);
}

describe('a session', () => {
  it('delegates in the foreground and the background, and a child card is decided from the session', async () => {
    const { sessionId } = await harness.sessions.start({
      agent: 'lead',
      message: 'Do the work.',
      caller: { id: null, roles: [] },
      options: {},
    });

    const opened = await eventually(async () => {
      const events = await eventsOf(sessionId);
      return events.find((event) => event.type === 'card-opened');
    }, 'the writer card on the session stream');
    if (opened.type !== 'card-opened') throw new Error('unreachable');
    expect(opened.card.agent).toBe('writer');
    expect(opened.card.session).toBe(sessionId);
    expect(opened.card.delegationId).not.toBe(sessionId);

    const listed = await harness.sessions.cards(sessionId);
    expect(listed.map((card) => card.id)).toEqual([opened.card.id]);
    // While the background writer is parked, its first model call is in the session's usage,
    // from its progress report: the lead's calls so far (one a round), the reader's
    // two, the writer's one.
    const parked = await eventually(async () => {
      const current = await harness.sessions.get(sessionId);
      const writer = current.tasks.find((task) => task.agent === 'writer');
      return writer?.usage?.modelCalls === 1 ? current : undefined;
    }, "the running writer's usage");
    expect(parked.usage?.modelCalls).toBe(parked.roundsUsed + 2 + 1);

    await harness.delegations.decide(opened.card.id, { decision: 'approve' });

    const reply = await eventually(async () => {
      const events = await eventsOf(sessionId);
      return events.find((event) => event.type === 'reply');
    }, 'the reply');
    if (reply.type !== 'reply') throw new Error('unreachable');
    expect(reply.text).toContain('Wrote out.txt.');
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('written by writer\n');

    const state = await harness.sessions.get(sessionId);
    expect(state.status).toBe('idle');
    expect(state.tasks.map((task) => [task.agent, task.background, task.status])).toEqual([
      ['reader', false, 'completed'],
      ['writer', true, 'completed'],
    ]);
    expect(state.tasks[0]?.lastText).toContain('deputy test workspace');
    // Usage adds up: the lead's four model calls and each child's two.
    const children = state.tasks.map((task) => task.result?.usage);
    expect(children.map((usage) => usage?.modelCalls)).toEqual([2, 2]);
    expect(state.usage?.modelCalls).toBe(8);
    const childTokens = children.reduce((sum, usage) => sum + usage!.inputTokens, 0);
    expect(state.usage!.inputTokens).toBeGreaterThan(childTokens);
    const types = (await eventsOf(sessionId)).map((event) => event.type);
    expect(types.filter((type) => type === 'task-started')).toHaveLength(2);
    expect(types.filter((type) => type === 'task-finished')).toHaveLength(2);
    expect(types).toContain('card-decided');

    await harness.sessions.stop(sessionId);
    await eventually(
      async () => ((await harness.sessions.get(sessionId)).result ? true : undefined),
      'stopped',
    );
    // The replay test guards these: a session, and a background child that reports to it.
    await recordHistory(harness.client.workflow.getHandle(`session/${sessionId}`), 'session-tasks');
    await recordHistory(
      harness.client.workflow.getHandle(state.tasks[1]!.workflowId),
      'session-background-child',
    );
  }, 90_000);
});

async function startSession(agent: string, message = 'Go.'): Promise<string> {
  const { sessionId } = await harness.sessions.start({
    agent,
    message,
    caller: { id: null, roles: [] },
    options: {},
  });
  return sessionId;
}

async function pendingChildCard(sessionId: string) {
  return eventually(
    async () => (await harness.sessions.cards(sessionId))[0],
    'a child card',
    30_000,
  );
}

/** Running workflows in the session, by visibility (the session itself included). */
async function runningInSession(sessionId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const info of harness.client.workflow.list({
    query: `DeputySession = '${sessionId}' AND ExecutionStatus = 'Running'`,
  })) {
    ids.push(info.workflowId);
  }
  return ids;
}

describe('stopping', () => {
  it('TaskStop stops a background child parked on a card and denies the card', async () => {
    const sessionId = await startSession('stopper');
    const reply = await eventually(
      async () => {
        const events = await eventsOf(sessionId);
        return events.find((event) => event.type === 'reply');
      },
      'the reply',
      60_000,
    );
    if (reply.type !== 'reply') throw new Error('unreachable');
    expect(reply.text).toMatch(/^Stopped: \[task d-[a-z0-9]+ \(writer\) stopped/);
    const state = await harness.sessions.get(sessionId);
    const task = state.tasks[0]!;
    expect(task.status).toBe('stopped');
    // TaskOutput (its wait timed out) saw it waiting on its card, before the stop.
    const outputs = (await eventsOf(sessionId)).filter(
      (event) => event.type === 'tool-call' && event.tool === 'TaskOutput',
    );
    expect(outputs).toMatchObject([{ summary: expect.stringContaining('parked') }]);
    expect(outputs[0]).toMatchObject({
      summary: expect.stringContaining('waiting on 1 approval card'),
    });
    const child = await harness.delegations.get(task.taskId);
    expect(child.result?.status).toBe('stopped');
    expect(child.decidedCards.map((card) => card.state)).toMatchObject([
      { status: 'denied', reason: 'stopped' },
    ]);
    await harness.sessions.stop(sessionId);
  }, 90_000);

  it('stopping the session stops its children, denies all their cards and leaves nothing running', async () => {
    const sessionId = await startSession('starter');
    const card = await pendingChildCard(sessionId);
    await eventually(
      async () => ((await harness.sessions.get(sessionId)).status === 'idle' ? true : undefined),
      'the session idle',
    );

    expect(await harness.sessions.stop(sessionId)).toEqual({ stopped: true });
    const result = await eventually(
      async () => (await harness.sessions.get(sessionId)).result ?? undefined,
      'the session result',
    );
    expect(result.status).toBe('stopped');
    expect(result.notice).toContain('children were stopped');
    const child = await harness.delegations.get(card.delegationId);
    expect(child.result?.status).toBe('stopped');
    expect(child.decidedCards[0]?.state).toMatchObject({ status: 'denied', reason: 'stopped' });
    // The denial is on the session's stream too, whichever of the child's reports came first.
    const denial = await eventually(
      async () =>
        (await eventsOf(sessionId)).find(
          (event) => event.type === 'card-decided' && event.card.id === card.id,
        ),
      'the denial on the session stream',
    );
    expect(denial).toMatchObject({ card: { state: { status: 'denied', reason: 'stopped' } } });
    expect(
      await eventually(
        async () => ((await runningInSession(sessionId)).length === 0 ? [] : undefined),
        'nothing running',
      ),
    ).toEqual([]);
  }, 90_000);
});

describe('stopping mid-Task', () => {
  it('stops a session waiting on a foreground child: the child is stopped with it, its card denied', async () => {
    const sessionId = await startSession('waiter');
    const card = await pendingChildCard(sessionId);
    expect(await harness.sessions.stop(sessionId)).toEqual({ stopped: true });
    const result = await eventually(
      async () => (await harness.sessions.get(sessionId)).result ?? undefined,
      'the session result',
    );
    expect(result.status).toBe('stopped');
    // Every child accounted for: none left waiting to confirm.
    expect(result.notice).not.toContain('had not confirmed');
    const state = await harness.sessions.get(sessionId);
    expect(state.tasks).toMatchObject([
      {
        agent: 'writer',
        background: false,
        status: 'stopped',
        // The child's own account of its stop (its result, read from its completion).
        result: {
          status: 'stopped',
          notice: expect.stringContaining('pending approval cards were denied'),
        },
      },
    ]);
    const child = await harness.delegations.get(card.delegationId);
    expect(child.result?.status).toBe('stopped');
    expect(child.decidedCards[0]?.state).toMatchObject({ status: 'denied', reason: 'stopped' });
  }, 60_000);
});

describe('ops queries', () => {
  it('lists everything in a session and every parked child of an agent through visibility', async () => {
    const sessionId = await startSession('starter');
    const card = await pendingChildCard(sessionId);
    const inSession = await eventually(async () => {
      const rows: string[] = [];
      for await (const info of harness.client.workflow.list({
        query: `DeputySession = '${sessionId}'`,
      }))
        rows.push(info.workflowId);
      return rows.length === 2 ? rows.sort() : undefined;
    }, 'the session and its child listed');
    expect(inSession).toEqual(
      [`delegation/${sessionId}/${card.delegationId}`, `session/${sessionId}`].sort(),
    );

    const parked = await eventually(async () => {
      const rows: string[] = [];
      for await (const info of harness.client.workflow.list({
        query: `DeputyAgent = 'writer' AND DeputyStatus = 'parked' AND DeputyParent IS NOT NULL AND ExecutionStatus = 'Running'`,
      })) {
        rows.push(info.workflowId);
      }
      return rows.includes(`delegation/${sessionId}/${card.delegationId}`) ? rows : undefined;
    }, 'the parked child listed');
    expect(parked.every((id) => id.startsWith('delegation/'))).toBe(true);

    const byParent: string[] = [];
    for await (const info of harness.client.workflow.list({
      query: `DeputyParent = '${sessionId}'`,
    }))
      byParent.push(info.workflowId);
    expect(byParent).toEqual([`delegation/${sessionId}/${card.delegationId}`]);
    await harness.sessions.stop(sessionId);
  }, 60_000);
});

describe('a delegate', () => {
  it('never has Task, whatever its definition lists: a diagnostic, and no such tool', async () => {
    const handle = await harness.start('sneaky', 'Try to delegate.');
    const result = await handle.result();
    expect(result.text).toContain("You don't have a tool named 'Task'");
    expect(result.deniedCalls).toMatchObject([{ tool: 'Task', by: 'policy' }]);
    const resolved = await createAgentResolver(harness.config, harness.registry).resolve('sneaky', {
      id: null,
      roles: [],
    });
    expect(resolved!.snapshot.tools.map((tool) => tool.name)).toEqual(['read']);
    expect(resolved!.snapshot.diagnostics).toContainEqual(
      expect.objectContaining({
        path: 'tools[1]',
        message: expect.stringContaining('never has Task'),
      }),
    );
    const state = await harness.delegations.get(handle.workflowId.split('/').at(-1)!);
    expect(state.status).toBe('completed');
  }, 60_000);
});

describe('models', () => {
  it("runs a `model: inherit` child on the session's model, and refuses a Task model nobody can run", async () => {
    const sessionId = await startSession('inheritor');
    const reply = await eventually(async () => {
      const events = await eventsOf(sessionId);
      return events.find((event) => event.type === 'reply');
    }, 'the reply');
    const state = await harness.sessions.get(sessionId);
    const [copycat, reader] = state.tasks;
    const child = await harness.delegations.get(copycat!.taskId);
    // The copycat replays the session's own script: it has no Task, so its calls are refused.
    expect(child.model).toBe('scripted:scripts/inheritor.yaml (scripted model)');
    expect(copycat!.result?.deniedCalls?.map((call) => call.tool)).toEqual(['Task', 'Task']);
    expect(reader!.status).toBe('failed');
    expect(reply.type === 'reply' && reply.text).toContain(
      "Model not available: Task model for 'reader': 'nope/none' is not in the model catalog",
    );
    await harness.sessions.stop(sessionId);
  }, 60_000);
});

describe('roles travel', () => {
  it('a child resolves with the session caller roles: no tool is gained by delegating', async () => {
    const { sessionId } = await harness.sessions.start({
      agent: 'lead',
      message: 'Do the work.',
      caller: { id: 'rita', roles: [] },
      options: {},
    });
    const reply = await eventually(async () => {
      const events = await eventsOf(sessionId);
      return events.find((event) => event.type === 'reply');
    }, 'the reply');
    expect(reply.type === 'reply' && reply.text).toContain('Not done: write was denied (policy)');
    const state = await harness.sessions.get(sessionId);
    const writer = state.tasks.find((task) => task.agent === 'writer')!;
    expect(writer.result?.deniedCalls).toMatchObject([
      {
        tool: 'write',
        by: 'policy',
        reason: expect.stringContaining("You don't have a tool named 'write'"),
      },
    ]);
    // The child belongs to the session's caller: its cards and stop rights follow from that.
    expect(await harness.delegations.owner(writer.taskId)).toBe('rita');
    await harness.sessions.stop(sessionId);
  }, 60_000);
});

describe('the built-in agents', () => {
  it('demo-lead hands the demo task to demo, whose card is decided from the session', async () => {
    const sessionId = await startSession('demo-lead', 'Greet the workspace.');
    const card = await pendingChildCard(sessionId);
    expect(card).toMatchObject({ agent: 'demo', tool: 'write' });
    await harness.delegations.decide(card.id, { decision: 'approve' });
    const reply = await eventually(async () => {
      const events = await eventsOf(sessionId);
      return events.find((event) => event.type === 'reply');
    }, 'the reply');
    expect(reply.type === 'reply' && reply.text).toContain('The demo agent answered: [task');
    expect(await readFile(join(harness.workspace, 'hello.txt'), 'utf8')).toContain('demo agent');
    await harness.sessions.stop(sessionId);
  }, 60_000);

  it('a session without an agent runs the built-in main agent, with Task listing the others', async () => {
    const { sessionId, agent } = await harness.sessions.start({
      caller: { id: null, roles: [] },
      options: {},
    });
    expect(agent).toBe('main');
    const resolved = await createAgentResolver(harness.config, harness.registry).resolve(
      'main',
      { id: null, roles: [] },
      { asSession: true },
    );
    const task = resolved!.snapshot.tools.find((tool) => tool.name === 'Task')!;
    expect(task.description).toContain('- demo: Demonstration agent on the scripted model');
    expect(task.description).toContain('- writer: Writes out.txt (asks first)');
    expect(task.description).not.toContain('- main:');
    await eventually(
      async () => ((await harness.sessions.get(sessionId)).status === 'idle' ? true : undefined),
      'the main session idle, waiting for a message',
    );
    await harness.sessions.stop(sessionId);
  }, 60_000);
});
