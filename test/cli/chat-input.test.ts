import { describe, expect, it } from 'vitest';
import { parseChatLine, promptFor } from '../../src/cli/sessions/chat-input.js';
import { chatCardLines, chatEventLines } from '../../src/cli/sessions/chat.js';
import { PendingCards, trackCards } from '../../src/cli/sessions/session-stream.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';

const ONE = ['d-child.1'];
const TWO = ['d-child.1', 's-main.2'];

function card(id: string, status: 'pending' | 'approved' = 'pending'): ApprovalCard {
  const delegationId = id.slice(0, id.lastIndexOf('.'));
  return {
    id,
    delegationId,
    workflowId: `delegation/s-main/${delegationId}`,
    session: 's-main',
    agent: 'writer',
    tool: 'write',
    arguments: { path: 'out.txt' },
    reason: 'write needs approval',
    openedAt: '2026-01-01T00:00:00.000Z',
    state:
      status === 'pending'
        ? { status }
        : { status, reason: null, decidedAt: '2026-01-01T00:00:01.000Z', decidedBy: 'cli:me' },
  };
}

describe('a line typed into deputy chat', () => {
  it('is a message unless it is an answer or a command; an empty line does nothing', () => {
    expect(parseChatLine('  Do the work.  ', ONE)).toEqual({
      kind: 'message',
      text: 'Do the work.',
    });
    expect(parseChatLine('   ', ONE)).toEqual({ kind: 'nothing' });
    // Words that merely start like an answer stay messages.
    expect(parseChatLine('no, use the other file', ONE)).toEqual({
      kind: 'message',
      text: 'no, use the other file',
    });
    expect(parseChatLine('yes please', ONE)).toEqual({ kind: 'message', text: 'yes please' });
    expect(parseChatLine('now write it', ONE)).toEqual({ kind: 'message', text: 'now write it' });
  });

  it('answers the single pending card with y, n and n <reason>', () => {
    for (const yes of ['y', 'Y', 'yes']) {
      expect(parseChatLine(yes, ONE)).toEqual({
        kind: 'decide',
        cardId: 'd-child.1',
        decision: 'approve',
      });
    }
    expect(parseChatLine('no', ONE)).toEqual({
      kind: 'decide',
      cardId: 'd-child.1',
      decision: 'deny',
    });
    expect(parseChatLine('n  not that file ', ONE)).toEqual({
      kind: 'decide',
      cardId: 'd-child.1',
      decision: 'deny',
      reason: 'not that file',
    });
  });

  it('refuses y and n when no card or several cards are pending, naming the way out', () => {
    expect(parseChatLine('y', [])).toEqual({ kind: 'error', message: 'no card is pending' });
    const several = parseChatLine('n', TWO);
    expect(several.kind).toBe('error');
    expect(several.kind === 'error' && several.message).toContain('d-child.1, s-main.2');
    expect(several.kind === 'error' && several.message).toContain('/deny <cardId>');
  });

  it('takes /approve and /deny with a card id, or without one when one card is pending', () => {
    expect(parseChatLine('/approve s-main.2', TWO)).toEqual({
      kind: 'decide',
      cardId: 's-main.2',
      decision: 'approve',
    });
    expect(parseChatLine('/deny d-child.1 too risky now', TWO)).toEqual({
      kind: 'decide',
      cardId: 'd-child.1',
      decision: 'deny',
      reason: 'too risky now',
    });
    // A card id not (or no longer) pending here is still sent: the facade says what became of it.
    expect(parseChatLine('/approve d-other.7', ONE)).toMatchObject({ cardId: 'd-other.7' });
    expect(parseChatLine('/deny wrong path', ONE)).toEqual({
      kind: 'decide',
      cardId: 'd-child.1',
      decision: 'deny',
      reason: 'wrong path',
    });
    expect(parseChatLine('/approve', TWO).kind).toBe('error');
  });

  it('takes the richer decisions: /allow for the rest of the delegation, /answer in the tool’s place', () => {
    expect(parseChatLine('/allow', ONE)).toEqual({
      kind: 'decide',
      cardId: 'd-child.1',
      decision: 'approve',
      allow: 'delegation',
    });
    expect(parseChatLine('/allow s-main.2', TWO)).toMatchObject({
      cardId: 's-main.2',
      allow: 'delegation',
    });
    expect(parseChatLine('/allow', TWO).kind).toBe('error');
    expect(parseChatLine('/answer the file already exists', ONE)).toEqual({
      kind: 'decide',
      cardId: 'd-child.1',
      decision: 'answer',
      answer: 'the file already exists',
    });
    expect(parseChatLine('/answer d-child.1 use notes.md instead', TWO)).toEqual({
      kind: 'decide',
      cardId: 'd-child.1',
      decision: 'answer',
      answer: 'use notes.md instead',
    });
    // The answer is the tool's result: without text there is nothing to answer with.
    expect(parseChatLine('/answer', ONE)).toMatchObject({ kind: 'error' });
    expect(parseChatLine('/answer d-child.1', TWO)).toMatchObject({ kind: 'error' });
    expect(parseChatLine('/answer some text', TWO).kind).toBe('error');
  });

  it('knows /cards, /stop, /detach, /help and refuses other commands', () => {
    expect(parseChatLine('/cards', [])).toEqual({ kind: 'cards' });
    expect(parseChatLine('/STOP', [])).toEqual({ kind: 'stop' });
    expect(parseChatLine('/detach', [])).toEqual({ kind: 'detach' });
    expect(parseChatLine('/quit', [])).toEqual({ kind: 'detach' });
    expect(parseChatLine('/help', [])).toEqual({ kind: 'help' });
    expect(parseChatLine('/frobnicate', [])).toEqual({
      kind: 'error',
      message: 'unknown command /frobnicate; /help lists them',
    });
  });

  it('prompts with the question about the single pending card', () => {
    expect(promptFor([])).toBe('> ');
    expect(promptFor(ONE)).toBe('approve card d-child.1? [y/n/n <reason>] ');
    expect(promptFor(TWO)).toContain('2 cards pending');
  });
});

describe('the chat stream', () => {
  it('shows a card with the agent that wants it, where it comes from and how to answer', () => {
    const lines = chatCardLines(card('d-child.1')).join('\n');
    expect(lines).toContain(
      'approval needed: card d-child.1: writer wants write {"path":"out.txt"}',
    );
    expect(lines).toContain('from task d-child');
    expect(lines).toContain('/approve d-child.1');
    expect(chatCardLines({ ...card('s-main.1'), delegationId: 's-main' }).join('\n')).toContain(
      'from the session',
    );
    const at = '2026-01-01T00:00:00.000Z';
    expect(chatEventLines({ seq: 1, at, type: 'message', text: 'Do it.', from: null })).toEqual([
      '(working on: Do it.)',
    ]);
  });

  it('keeps pending cards in order and shows a card seen twice (attach, then stream) once', () => {
    const pending = new PendingCards();
    expect(pending.open(card('d-a.1'))).toBe(true);
    expect(pending.open(card('d-b.1'))).toBe(true);
    const at = '2026-01-01T00:00:00.000Z';
    expect(trackCards(pending, { seq: 3, at, type: 'card-opened', card: card('d-a.1') })).toBe(
      true,
    );
    expect(pending.ids()).toEqual(['d-a.1', 'd-b.1']);
    expect(
      trackCards(pending, { seq: 4, at, type: 'card-decided', card: card('d-a.1', 'approved') }),
    ).toBe(false);
    expect(pending.ids()).toEqual(['d-b.1']);
  });
});
