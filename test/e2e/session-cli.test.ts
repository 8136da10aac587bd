/**
 * `deputy session start|show|list|send|follow|stop` as a user runs them: the real
 * bin/deputy.mjs against the global dev server and the harness's worker (its task queue reached
 * through DEPUTY_TASK_QUEUE). The scripted `lead` hands a write to a background writer whose
 * card is then pending while the session waits for it.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionState } from '../../src/shared/session.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import type { SessionSummary } from '../../src/temporal/sessions/facade.js';
import { eventually } from '../support/eventually.js';
import { Terminal } from '../support/pty.js';
import { createHarness, type Harness } from '../integration/support/harness.js';
import {
  FOREGROUND_THEN_BACKGROUND,
  leadAgent,
  readerAgent,
  writerAgent,
} from '../integration/support/session-agents.js';
import { DEPUTY_BIN, runDeputy, type Outcome } from './run-deputy.js';

let harness: Harness;
const terminals: Terminal[] = [];

beforeAll(async () => {
  harness = await createHarness({
    ...readerAgent,
    ...writerAgent,
    ...leadAgent(FOREGROUND_THEN_BACKGROUND),
  });
}, 60_000);

afterAll(async () => {
  for (const terminal of terminals) await terminal.kill();
  await harness?.close();
});

function environment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TEMPORAL_ADDRESS: harness.address,
    DEPUTY_TASK_QUEUE: harness.taskQueue,
    DEPUTY_WORKSPACE: harness.workspace,
    DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
  };
}

function deputy(args: string[]): Promise<Outcome> {
  return runDeputy(args, { env: environment(), cwd: harness.workspace });
}

describe('deputy session', () => {
  it('starts, shows tasks and child cards, lists, follows and stops a session', async () => {
    const sessionId = `cli-${randomUUID().slice(0, 8)}`;
    const started = await deputy([
      'session',
      'start',
      'lead',
      'Do',
      'the',
      'work.',
      '--id',
      sessionId,
    ]);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout.trim()).toBe(sessionId);
    expect(started.stderr).toContain(`deputy chat --attach ${sessionId}`);

    const shown = await eventually(
      async () => {
        const show = await deputy(['session', 'show', sessionId, '--json']);
        expect(show.code, show.stderr).toBe(0);
        const parsed = JSON.parse(show.stdout) as SessionState & { cards: ApprovalCard[] };
        // The child's card and its `parked` progress report reach the session one after the other.
        const writer = parsed.tasks.find((task) => task.agent === 'writer');
        return parsed.cards.length > 0 && writer?.status === 'parked' ? parsed : undefined;
      },
      "the writer's card on the session",
      30_000,
      250,
    );
    const [card] = shown.cards;
    expect(card).toMatchObject({ agent: 'writer', tool: 'write', session: sessionId });
    expect(shown.tasks.map((task) => task.agent)).toEqual(['reader', 'writer']);

    const human = await deputy(['session', 'show', sessionId]);
    expect(human.stdout).toMatch(/reader\s+completed\s+2\s+0\s+foreground\s+read README/);
    expect(human.stdout).toMatch(/writer\s+parked\s+\d+\s+1\s+background\s+write out/);
    expect(human.stdout).toContain(`card ${card!.id}: writer wants write`);

    const listed = await deputy(['session', 'list', '--agent', 'lead', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as SessionSummary[]).map((row) => row.sessionId)).toContain(
      sessionId,
    );

    // follow prints the pending card first, then the stream, and ends when the session does.
    const follow = new Terminal(
      [process.execPath, DEPUTY_BIN, 'session', 'follow', sessionId],
      environment(),
      harness.workspace,
    );
    terminals.push(follow);
    await follow.waitFor(`pending:\n  card ${card!.id}: writer wants write`);
    const stopped = await deputy(['session', 'stop', sessionId]);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain(`stopping ${sessionId}`);
    await follow.waitFor(/task \S+ stopped: writer/);
    await follow.waitFor('finished: stopped');
    expect(await follow.exited).toBe(0);
    expect((await harness.sessions.get(sessionId)).status).toBe('stopped');

    // An ended session takes no message, and following it ends at once.
    const sent = await deputy(['session', 'send', sessionId, 'Anyone?']);
    expect(sent.code).toBe(4);
    expect(sent.stderr).toContain('has ended');
    const late = await deputy(['session', 'follow', sessionId]);
    expect(late.code, late.stderr).toBe(0);
    expect(late.stdout).toContain('finished: stopped');

    const missing = await deputy(['session', 'show', 's-nosuchsession']);
    expect(missing.code).toBe(3);
  }, 90_000);
});
