import { describe, expect, it } from 'vitest';
import { sessionLines, sessionTable } from '../../src/cli/sessions/session-commands.js';
import type { SessionState } from '../../src/shared/session.js';

const state: SessionState = {
  kind: 'session',
  delegationId: 's-main',
  workflowId: 'session/s-main',
  agent: 'lead',
  session: 's-main',
  status: 'idle',
  roundsUsed: 4,
  maxTurns: 20,
  model: 'scripted:scripts/lead.yaml',
  definitionHash: null,
  pendingCards: [],
  decidedCards: [],
  transcriptSummary: [],
  deniedCalls: [],
  result: null,
  queuedMessages: 0,
  tasks: [
    {
      taskId: 'd-w',
      workflowId: 'delegation/s-main/d-w',
      agent: 'writer',
      description: 'write out',
      background: true,
      status: 'parked',
      roundsUsed: 1,
      pendingCards: 1,
      lastText: 'Writing out.txt.',
      result: null,
      startedAt: '2026-01-01T00:00:00.000Z',
    },
  ],
};

describe('deputy session output', () => {
  it('shows a session with its tasks (agent, status, rounds) and pending cards', () => {
    const lines = sessionLines(state, []).join('\n');
    expect(lines).toContain('session s-main');
    expect(lines).toContain('status:   idle');
    expect(lines).toMatch(/d-w\s+writer\s+parked\s+1\s+1\s+background\s+write out/);
    expect(lines).toContain('pending cards: none');
  });

  it('lists sessions newest first as a table, or says there are none', () => {
    expect(sessionTable([])).toEqual(['no sessions']);
    const [header, row] = sessionTable([
      {
        sessionId: 's-main',
        workflowId: 'session/s-main',
        agent: 'lead',
        status: 'idle',
        pendingCards: 0,
        firstMessage: 'Do the work.',
        startedAt: '2026-01-01T00:00:00.000Z',
        closedAt: null,
      },
    ]);
    expect(header).toMatch(/^SESSION\s+AGENT\s+STATUS/);
    expect(row).toMatch(/^s-main\s+lead\s+idle\s+0\s+2026-01-01 00:00:00\s+Do the work\.$/);
  });
});
