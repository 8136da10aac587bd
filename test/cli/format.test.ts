import { describe, expect, it } from 'vitest';
import {
  cardLines,
  eventLines,
  resultLines,
  stateLines,
  summaryTable,
} from '../../src/cli/format.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';

const card: ApprovalCard = {
  id: 'd-abc.1',
  delegationId: 'd-abc',
  workflowId: 'delegation/s/d-abc',
  session: 's',
  agent: 'demo',
  tool: 'write',
  arguments: { path: 'hello.txt' },
  reason: 'write needs approval',
  openedAt: '2026-01-01T00:00:00.000Z',
  state: { status: 'pending' },
};

describe('CLI formatting', () => {
  it('tells the user the exact command to approve or deny a card', () => {
    const lines = cardLines(card).join('\n');
    expect(lines).toContain('deputy approve d-abc.1');
    expect(lines).toContain('deputy deny d-abc.1');
    expect(lines).toContain('{"path":"hello.txt"}');
  });

  it('prints one progress line per event kind', () => {
    const at = '2026-01-01T00:00:00.000Z';
    expect(eventLines({ seq: 1, at, type: 'started', agent: 'demo', model: 'scripted:x' })).toEqual(
      ['started demo (model scripted:x)'],
    );
    expect(
      eventLines({
        seq: 2,
        at,
        type: 'model-turn',
        round: 1,
        text: 'Reading\nnow',
        toolCalls: ['read'],
      }),
    ).toEqual(['round 1: Reading now -> read']);
    expect(eventLines({ seq: 3, at, type: 'card-opened', card }).join('\n')).toContain(
      'deputy approve d-abc.1',
    );
    const decided: ApprovalCard = {
      ...card,
      state: { status: 'denied', reason: 'no', decidedAt: at, decidedBy: 'cli:me' },
    };
    expect(eventLines({ seq: 4, at, type: 'card-decided', card: decided })).toEqual([
      'card d-abc.1 denied by cli:me',
    ]);
  });

  it('says in a status whether bash runs in a sandbox, and its bounds', () => {
    const state = {
      delegationId: 'd-box',
      workflowId: 'delegation/s/d-box',
      agent: 'boxed',
      session: 's',
      status: 'completed' as const,
      roundsUsed: 1,
      maxTurns: 6,
      model: null,
      definitionHash: null,
      pendingCards: [],
      decidedCards: [],
      transcriptSummary: [],
      deniedCalls: [],
      result: null,
    };
    expect(stateLines(state).join('\n')).not.toContain('sandbox');
    expect(stateLines({ ...state, sandbox: null })).toContain(
      "  sandbox:  off (bash runs as the worker's user)",
    );
    const bounds = {
      readOnly: ['/srv/data'],
      readWrite: ['/ws', '/ws/out'],
      env: ['CI'],
      limits: { cpuSeconds: 30, processes: 64 },
    };
    expect(stateLines({ ...state, sandbox: bounds }).slice(6, 11)).toEqual([
      '  sandbox:  on, no network',
      '    read-write: /ws, /ws/out',
      '    read-only:  /srv/data',
      '    env:        CI',
      '    limits:     cpuSeconds 30, processes 64',
    ]);
  });

  it('shows pending cards in a status and aligns the list', () => {
    const parked = {
      delegationId: 'd-abc',
      workflowId: 'delegation/s/d-abc',
      agent: 'demo',
      session: 's',
      status: 'parked' as const,
      roundsUsed: 2,
      maxTurns: 6,
      model: null,
      definitionHash: null,
      pendingCards: [card],
      decidedCards: [],
      transcriptSummary: [],
      deniedCalls: [{ tool: 'bash', by: 'policy' as const, reason: 'no bash here' }],
      result: null,
    };
    const lines = stateLines(parked);
    expect(lines.join('\n')).toContain('deputy approve d-abc.1');
    expect(lines).toContain('  denied so far: 1');
    // Tools on the shared queue: no line; on a workspace's tool queue, which one.
    expect(lines.some((line) => line.includes('tools on'))).toBe(false);
    const affine = stateLines({ ...parked, toolQueue: 'deputy-delegations-tools/alice' });
    expect(affine).toContain('  tools on: deputy-delegations-tools/alice');
    // A state rebuilt without the workflow's answer says so, and why.
    expect(lines.some((line) => line.includes('partial'))).toBe(false);
    const rebuilt = stateLines({ ...parked, partial: 'no worker polls its task queue q' });
    expect(rebuilt).toContain(
      '  partial:  no worker polls its task queue q; decided cards and transcript unknown, ask again',
    );
    // A model call riding out a provider failure: which attempt, when, and the last failure.
    const retrying = stateLines({
      ...parked,
      modelRetry: {
        attempt: 2,
        maximumAttempts: 4,
        lastFailure: 'model local/qwen: HTTP 503 from http://127.0.0.1:8080/v1: 503 busy',
        nextAttemptAt: '2026-01-01T00:00:02.000Z',
      },
    });
    expect(retrying).toContain(
      '  model call: retrying, attempt 2 of 4 at 2026-01-01T00:00:02.000Z',
    );
    expect(retrying).toContain(
      '    last failure: model local/qwen: HTTP 503 from http://127.0.0.1:8080/v1: 503 busy',
    );
    expect(stateLines({ ...parked, modelRetry: null }).join('\n')).not.toContain('model call');
    // Steering and revival: where it came from, and each message sent to it.
    expect(stateLines(parked).join('\n')).not.toMatch(/messages|resumed from|forked from/);
    const steered = stateLines({
      ...parked,
      origin: { delegationId: 'd-old', fromRound: 3, resumed: true },
      messages: [
        {
          seq: 1,
          text: 'use the\nstaging bucket',
          from: 'erin',
          sentAt: '2026-01-01T00:00:00.000Z',
          deliveredAt: '2026-01-01T00:00:01.000Z',
          deliveredBeforeRound: 2,
        },
        {
          seq: 2,
          text: 'and log it',
          from: null,
          sentAt: '2026-01-01T00:00:02.000Z',
          deliveredAt: null,
          deliveredBeforeRound: null,
        },
      ],
    });
    expect(steered).toContain('  resumed from: d-old (after its round 3)');
    expect(steered).toContain('  messages: 2');
    expect(steered).toContain('    1 from erin, before round 2: use the staging bucket');
    expect(steered).toContain('    2, waiting for the next round: and log it');
    expect(stateLines({ ...parked, origin: { delegationId: 'd-old', fromRound: 3 } })).toContain(
      '  forked from: d-old (after its round 3)',
    );
    const table = summaryTable([
      {
        delegationId: 'd-abc',
        workflowId: 'w',
        agent: 'demo',
        session: 's',
        status: 'parked',
        pendingCards: 1,
        task: 'Greet',
        tokens: 1515,
        startedAt: '2026-01-01T00:00:00.000Z',
        closedAt: null,
      },
    ]);
    expect(table[0]).toMatch(/^ID\s+AGENT\s+SESSION\s+STATUS\s+CARDS\s+TOKENS/);
    expect(table[1]).toMatch(/parked\s+1\s+1515\s+2026-01-01 00:00:00/);
    expect(summaryTable([])).toEqual(['no delegations']);
  });

  it('says a completed delegation had calls denied, and which', () => {
    const lines = resultLines({
      status: 'completed',
      text: 'Done, partly.',
      notice: null,
      roundsUsed: 3,
      deniedCalls: [
        { tool: 'write', by: 'human', reason: 'not in this folder' },
        { tool: 'bash', by: 'policy', reason: "You don't have a tool named 'bash'." },
      ],
    });
    expect(lines.slice(0, 3)).toEqual([
      'status: completed after 3 round(s), 2 tool call(s) denied',
      '  denied write (by human): not in this folder',
      "  denied bash (by policy): You don't have a tool named 'bash'.",
    ]);
    // A result recorded before deniedCalls existed reads as it did.
    expect(resultLines({ status: 'completed', text: '', notice: null, roundsUsed: 1 })).toEqual([
      'status: completed after 1 round(s)',
    ]);
  });
});
