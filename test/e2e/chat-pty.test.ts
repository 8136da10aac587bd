/**
 * `deputy chat` through a real pseudo-terminal (test/support/pty-run.py), as a user at a
 * terminal: the real bin/deputy.mjs talks to the global dev server, whose worker (the harness's,
 * on its own task queue, which the CLI reaches through DEPUTY_TASK_QUEUE) runs a scripted `lead`
 * main agent. It asks a reader in the foreground and a writer in the background whose write
 * opens a card; the card shows on the terminal naming the writer and is approved with `y`.
 * Ctrl-C leaves the session running; a card that opens while nobody is attached is printed first
 * by `deputy chat --attach`; Ctrl-D leaves it running too, and `/stop` stops it.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { Terminal } from '../support/pty.js';
import { createHarness, type Harness } from '../integration/support/harness.js';
import {
  FOREGROUND_THEN_BACKGROUND,
  leadAgent,
  readerAgent,
  writerAgent,
} from '../integration/support/session-agents.js';
import { DEPUTY_BIN } from './run-deputy.js';

/** The first message runs FOREGROUND_THEN_BACKGROUND; the second starts a writer and answers. */
const SECOND_MESSAGE = `  - text: Starting the writer again.
    toolCalls: [{ name: Task, arguments: { description: write again, prompt: Write out.txt again, subagent_type: writer, run_in_background: true } }]
  - text: The writer works on it in the background.
`;

let harness: Harness;
const terminals: Terminal[] = [];

beforeAll(async () => {
  harness = await createHarness({
    ...readerAgent,
    ...writerAgent,
    ...leadAgent(FOREGROUND_THEN_BACKGROUND + SECOND_MESSAGE),
  });
}, 60_000);

afterAll(async () => {
  for (const terminal of terminals) await terminal.kill();
  await harness?.close();
});

function deputyOnPty(args: string[]): Terminal {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_ADDRESS: harness.address,
    DEPUTY_TASK_QUEUE: harness.taskQueue,
    DEPUTY_WORKSPACE: harness.workspace,
    DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
    TERM: 'xterm',
  };
  const terminal = new Terminal([process.execPath, DEPUTY_BIN, ...args], env, harness.workspace);
  terminals.push(terminal);
  return terminal;
}

describe('deputy chat on a terminal', () => {
  it('answers a child card inline, detaches on Ctrl-C and Ctrl-D, prints a card opened meanwhile first on attach, and stops on /stop', async () => {
    const sessionId = `chat-${randomUUID().slice(0, 8)}`;

    // 1. A new session: type a message, the writer's card shows, `y` approves it.
    const first = deputyOnPty(['chat', 'lead', '--id', sessionId]);
    await first.waitFor(`session ${sessionId} with lead started`);
    await first.waitFor('> ');
    first.type('Do the work.\r');
    await first.waitFor(/task \S+ started: reader/);
    const card = await first.waitFor(/approval needed: card (\S+): writer wants write/);
    const cardId = /approval needed: card (\S+):/.exec(card)![1]!;
    expect(cardId.startsWith(`${sessionId}.`)).toBe(false); // the child's card, not the session's
    await first.waitFor(`approve card ${cardId}? [y/n/n <reason>]`);
    first.type('y\r');
    await first.waitFor(`card ${cardId} approved by cli:`);
    await first.waitFor(/task \S+ completed: writer Wrote out\.txt\./);
    await first.waitFor(/Done\.[\s\S]*Wrote out\.txt\./);
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('written by writer\n');

    // 2. Ctrl-C detaches: the command ends, says how to come back, and the session runs on.
    first.type('\x03');
    await first.waitFor(`detached; session ${sessionId} runs on`);
    await first.waitFor(`deputy chat --attach ${sessionId}`);
    expect(await first.exited).toBe(0);
    const afterDetach = await eventually(async () => {
      const state = await harness.sessions.get(sessionId);
      return state.status === 'idle' ? state : undefined;
    }, 'the session to rest after its answer');
    expect(afterDetach.result).toBeNull();
    expect(afterDetach.tasks.map((task) => [task.agent, task.status])).toEqual([
      ['reader', 'completed'],
      ['writer', 'completed'],
    ]);

    // 3. While nobody is attached, another message makes the writer open a card.
    await harness.sessions.send(sessionId, { text: 'Write it again.', from: null });
    const [waiting] = await eventually(async () => {
      const cards = await harness.sessions.cards(sessionId);
      return cards.length > 0 ? cards : undefined;
    }, 'the second writer card');
    expect(waiting).toMatchObject({ agent: 'writer', tool: 'write' });

    // 4. Attaching prints that card first, before any new event, and `y` answers it.
    const second = deputyOnPty(['chat', '--attach', sessionId]);
    const attached = await second.waitFor(`approve card ${waiting!.id}? [y/n/n <reason>]`);
    expect(attached).toContain(`attached to session ${sessionId} (agent lead`);
    expect(attached).toContain(`1 card(s) pending:`);
    expect(attached).toContain(`approval needed: card ${waiting!.id}: writer wants write`);
    expect(attached.indexOf('approval needed')).toBeLessThan(attached.indexOf('approve card'));
    second.type('y\r');
    await second.waitFor(`card ${waiting!.id} approved by cli:`);
    await second.waitFor(/task \S+ completed: writer/);

    // 5. Ctrl-D detaches too; the session still runs.
    second.type('\x04');
    await second.waitFor(`deputy chat --attach ${sessionId}`);
    expect(await second.exited).toBe(0);
    expect((await harness.sessions.get(sessionId)).status).toBe('idle');

    // 6. `/stop` stops the session: the command ends with it, and Temporal says stopped.
    const third = deputyOnPty(['chat', '--attach', sessionId]);
    await third.waitFor(`attached to session ${sessionId}`);
    await third.waitFor('> ');
    third.type('/stop\r');
    await third.waitFor(`stopping session ${sessionId}`);
    await third.waitFor(`session ${sessionId} ended (stopped)`);
    expect(await third.exited).toBe(0);
    const stopped = await harness.sessions.get(sessionId);
    expect(stopped.status).toBe('stopped');
    expect(stopped.pendingCards).toEqual([]);

    // An ended session cannot be attached to: exit 4 and a way forward.
    const late = deputyOnPty(['chat', '--attach', sessionId]);
    await late.waitFor(
      `session ${sessionId} has ended (stopped); start a new one with deputy chat`,
    );
    expect(await late.exited).toBe(4);
  }, 90_000);
});
