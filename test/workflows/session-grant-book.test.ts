/**
 * Grants for the rest of a session, as the books hold them: a session records one on
 * its own card or adopts one a child's card gave, counts each change (so it sends them on), and a
 * Task child applies its session's grants and its own provisional one until the session sends
 * the list back. Also the shape check and the CLI's and chat's ways of asking for one.
 */
import { describe, expect, it } from 'vitest';
import { parseChatLine } from '../../src/cli/sessions/chat-input.js';
import { decisionFields } from '../../src/cli/delegations/decision-options.js';
import { decisionShapeProblem } from '../../src/shared/cards/card-decision-shape.js';
import type { CardDecision } from '../../src/shared/delegation.js';
import { GrantBook } from '../../src/workflows/cards/grant-book.js';

const WRITE = { tool: 'write', toolClass: 'write' as const, paths: ['/w/note.txt'] };

function approve(cardId: string, allow?: 'delegation' | 'session'): CardDecision {
  return { cardId, decision: 'approve', decidedBy: 'ann', ...(allow ? { allow } : {}) };
}

describe('session grants in the books', () => {
  it('a session records its own card for the rest of the session and counts the change', () => {
    const book = new GrantBook();
    book.remember('s.1', WRITE);
    expect(book.record(approve('s.1', 'session'), 'now', 'session')).toEqual({ n: 1 });
    expect(book.forSession()).toMatchObject([{ n: 1, tool: 'write', for: 'session' }]);
    expect(book.sessionChanges()).toBe(1);
    expect(book.revoke(1, 'ann', 'later')).toMatchObject({ n: 1, revoked: { by: 'ann' } });
    expect(book.sessionChanges()).toBe(2);
    expect(book.active()).toEqual([]);
  });

  it('a delegation grant is no session grant and changes nothing a session sends', () => {
    const book = new GrantBook();
    book.remember('s.1', WRITE);
    expect(book.record(approve('s.1', 'delegation'), 'now', 'session')).toEqual({ n: 1 });
    expect(book.forSession()).toEqual([]);
    expect(book.sessionChanges()).toBe(0);
  });

  it('a child hands a session grant over, applies it at once, and takes the session’s list', () => {
    const child = new GrantBook();
    child.remember('c.1', WRITE);
    const recorded = child.record(approve('c.1', 'session'), 'now', 'child');
    expect(recorded.n).toBeUndefined();
    expect(recorded.forSession).toMatchObject({ tool: 'write', for: 'session', cardId: 'c.1' });
    expect(child.all()).toEqual([]);
    expect(child.active()).toHaveLength(1);

    const session = new GrantBook();
    const adopted = session.adopt(recorded.forSession!, 'c');
    expect(adopted).toMatchObject({ n: 1, for: 'session', delegationId: 'c', cardId: 'c.1' });
    expect(session.sessionChanges()).toBe(1);

    child.setSessionGrants(session.forSession());
    expect(child.active()).toMatchObject([{ n: 1, cardId: 'c.1' }]);
    expect(child.heldForSession()).toHaveLength(1);
    session.revoke(1, 'ann', 'later');
    child.setSessionGrants(session.forSession());
    expect(child.active()).toEqual([]);
  });

  it('a later child starts with the session’s grants', () => {
    const grant = { n: 1, tool: 'write', scope: { kind: 'paths' as const, paths: ['/w/a'] } };
    const child = new GrantBook(
      [],
      [{ ...grant, cardId: 's.1', grantedBy: null, grantedAt: 'now', for: 'session' }],
    );
    expect(child.active()).toHaveLength(1);
    expect(child.all()).toEqual([]);
  });
});

describe('asking for the rest of the session', () => {
  it('the shape check takes session and delegation, and nothing else', () => {
    expect(decisionShapeProblem({ decision: 'approve', allow: 'session' })).toBeNull();
    expect(decisionShapeProblem({ decision: 'approve', allow: 'delegation' })).toBeNull();
    expect(
      decisionShapeProblem({ decision: 'approve', allow: 'forever' as unknown as 'session' }),
    ).toBe(`allow must be 'delegation' or 'session'`);
    expect(decisionShapeProblem({ decision: 'deny', allow: 'session' })).toMatch(/approve/);
  });

  it('the CLI: --allow-session asks for the session, --allow-rest for the delegation', () => {
    expect(decisionFields({ allowSession: true })).toEqual({ allow: 'session' });
    expect(decisionFields({ allowRest: true })).toEqual({ allow: 'delegation' });
    expect(decisionFields({})).toEqual({});
  });

  it('deputy chat: /allow --session', () => {
    expect(parseChatLine('/allow --session', ['d-child.1'])).toEqual({
      kind: 'decide',
      cardId: 'd-child.1',
      decision: 'approve',
      allow: 'session',
    });
    expect(parseChatLine('/allow --session s-main.2', ['d-child.1', 's-main.2'])).toMatchObject({
      cardId: 's-main.2',
      allow: 'session',
    });
  });
});
