/**
 * A session's own transcript compacts as a delegation's does: a main agent whose
 * scripted model claims a tiny window reads a line a round, and between its rounds the older
 * ones are replaced by the model's summary, announced as a `compacted` event on the session's
 * stream; the session still answers and stays idle for the next message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelegationEvent } from '../../src/shared/delegation.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness({
    'short.txt': 'lorem ipsum dolor\n',
    '.subagents/agents/longwinded.md':
      '---\nname: longwinded\ndescription: reads a line a round\nmodel: scripted:scripts/longwinded.yaml\ntools: [read, Task]\nmaxTurns: 30\n---\nRead.\n',
    'scripts/longwinded.yaml': `contextTokens: 480\nsummary: "I read short.txt \${rounds} times."\nturns:\n${Array.from(
      { length: 20 },
      (_, index) =>
        `  - text: lap ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: short.txt, limit: 1 } }]`,
    ).join('\n')}\n  - text: finished the laps\n`,
  });
}, 60_000);
afterAll(() => harness?.close());

describe('a session compacts', () => {
  it('replaces its older rounds by a summary, announces it on its stream, and answers', async () => {
    const { sessionId } = await harness.sessions.start({
      agent: 'longwinded',
      message: 'Read away.',
      caller: { id: null, roles: [] },
      options: {},
    });
    const reply = await eventually(
      async () => {
        const events = await harness.sessions.events(sessionId, 0);
        return events.find((event) => event.type === 'reply');
      },
      'the reply',
      60_000,
    );
    if (reply.type !== 'reply') throw new Error('unreachable');
    expect(reply.text).toContain('finished the laps');

    const events = await harness.sessions.events(sessionId, 0);
    const compacted = events.filter(
      (event): event is Extract<DelegationEvent, { type: 'compacted' }> =>
        event.type === 'compacted',
    );
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted[0]!.by).toBe('summary');
    expect(compacted[0]!.text).toContain('I read short.txt');

    const state = await harness.sessions.get(sessionId);
    expect(state.status).toBe('idle');
    // Every round counts on; the transcript keeps the first message, then the summary, then
    // the last rounds word for word.
    expect(state.roundsUsed).toBe(21);
    const lines = state.transcriptSummary;
    expect(lines[0]).toMatch(/^user: Read away/);
    expect(lines[1]).toMatch(/^user: \[deputy compacted the/);
    expect(lines.filter((line) => line.startsWith('assistant')).length).toBeLessThan(21);
  }, 90_000);
});
