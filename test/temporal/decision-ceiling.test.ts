/**
 * The rule a door's ceiling holds its decisions to: within it every decision goes through; beyond
 * it only a denial does. One table row per mode, over the tool classes a card can be about.
 */
import { describe, expect, it } from 'vitest';
import { ceilingRefusal } from '../../src/temporal/delegations/cards/decision-ceiling.js';
import { maskedDecision } from '../../src/temporal/delegations/cards/masked-decision.js';
import { createSecretMasker } from '../../src/secrets/masker.js';
import type { PermissionMode } from '../../src/shared/policy-contract.js';

const TOOLS = [
  'read',
  'glob',
  'mcp_call',
  'mcp__github__create_issue',
  'write',
  'edit',
  'bash',
  'memory_write',
  'no_such_tool',
];
const WIDENING = [
  { decision: 'approve' },
  { decision: 'approve', allow: 'delegation' },
  { decision: 'approve', allow: 'session' },
  { decision: 'answer' },
] as const;

/** The tools on whose cards `mode` lets a door approve, answer or grant. */
function decidable(mode: PermissionMode | undefined): string[] {
  return TOOLS.filter((tool) =>
    WIDENING.every((decision) => ceilingRefusal(mode, { id: 'd-1.1', tool }, decision) === null),
  );
}

describe('a ceiling on decisions', () => {
  it('lets no ceiling, default, acceptEdits and bypassPermissions decide every card', () => {
    for (const mode of [undefined, 'default', 'acceptEdits', 'bypassPermissions'] as const) {
      expect(decidable(mode), String(mode)).toEqual(TOOLS);
    }
  });

  it('lets plan approve reads and MCP calls only, and dontAsk nothing', () => {
    expect(decidable('plan')).toEqual(['read', 'glob', 'mcp_call', 'mcp__github__create_issue']);
    expect(decidable('dontAsk')).toEqual([]);
    const refused = ceilingRefusal(
      'plan',
      { id: 'd-1.2', tool: 'bash' },
      { decision: 'approve', allow: 'session' },
    );
    expect(refused?.kind).toBe('forbidden');
    expect(refused?.message).toContain(
      "card d-1.2 (bash) cannot be given approve (allow for the rest of the session) here: this door serves under permission mode plan, and it is read-only and 'bash' is a tool of class exec",
    );
  });

  it('always lets a door deny', () => {
    for (const mode of ['plan', 'dontAsk'] as const) {
      for (const tool of TOOLS) {
        expect(ceilingRefusal(mode, { id: 'd-1.1', tool }, { decision: 'deny' })).toBeNull();
      }
    }
  });
});

describe('a decision masked', () => {
  const secrets = createSecretMasker(['hunter2-very-secret']);

  it('masks every free text and keeps its kind, grant, decider and ceiling', () => {
    const masked = maskedDecision(
      {
        decision: 'approve',
        allow: 'delegation',
        decidedBy: 'alice',
        ceiling: 'default',
        reason: 'ok hunter2-very-secret',
        arguments: { command: 'echo hunter2-very-secret', nested: ['hunter2-very-secret'] },
      },
      secrets,
    );
    expect(masked).toEqual({
      decision: 'approve',
      allow: 'delegation',
      decidedBy: 'alice',
      ceiling: 'default',
      reason: 'ok __redacted__',
      arguments: { command: 'echo __redacted__', nested: ['__redacted__'] },
    });
    expect(maskedDecision({ decision: 'answer', answer: 'hunter2-very-secret' }, secrets)).toEqual({
      decision: 'answer',
      answer: '__redacted__',
    });
  });
});
