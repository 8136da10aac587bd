/**
 * What a card decision may say, checked the same way by every door and by the workflow:
 * approve, deny, or answer in the tool's place; `allow` and `arguments` go with
 * approve only. Sandbox-safe: the workflow's CardBook uses it.
 */
import type { CardDecision } from '../delegation.js';

export const CARD_DECISION_KINDS = ['approve', 'deny', 'answer'] as const;

/** Longest answer a person may give in a tool's place, in characters (a tool result's size). */
export const MAX_ANSWER_CHARS = 64 * 1024;

/** Why a decision is malformed, or null when its shape is fine (whether it applies is the card's). */
export function decisionShapeProblem(
  decision: Pick<CardDecision, 'decision' | 'answer' | 'allow' | 'arguments'>,
): string | null {
  const kind: unknown = decision.decision;
  if (!(CARD_DECISION_KINDS as readonly unknown[]).includes(kind)) {
    return `decision must be approve, deny or answer, not ${String(kind)}`;
  }
  if (kind === 'answer') {
    if (typeof decision.answer !== 'string' || decision.answer.trim() === '')
      return 'an answer decision needs the answer text';
    if (decision.answer.length > MAX_ANSWER_CHARS)
      return `an answer is at most ${MAX_ANSWER_CHARS} characters`;
  } else if (decision.answer !== undefined) {
    return `answer goes with decision 'answer', not '${String(kind)}'`;
  }
  if (decision.allow !== undefined) {
    if (kind !== 'approve') return `allow goes with decision 'approve', not '${String(kind)}'`;
    if (decision.allow !== 'delegation' && decision.allow !== 'session')
      return `allow must be 'delegation' or 'session'`;
  }
  if (decision.arguments !== undefined) {
    if (kind !== 'approve') return `arguments go with decision 'approve', not '${String(kind)}'`;
    const args: unknown = decision.arguments;
    if (args === null || typeof args !== 'object' || Array.isArray(args))
      return 'arguments must be an object';
  }
  return null;
}

/**
 * The fields of the richer decisions (answer, allow, edited arguments), copied only when stated:
 * a plain approve or deny is the same signal as before.
 */
export function richDecisionFields(
  request: Pick<CardDecision, 'answer' | 'allow' | 'arguments'>,
): Pick<CardDecision, 'answer' | 'allow' | 'arguments'> {
  return {
    ...(request.answer === undefined ? {} : { answer: request.answer }),
    ...(request.allow === undefined ? {} : { allow: request.allow }),
    ...(request.arguments === undefined ? {} : { arguments: request.arguments }),
  };
}

/** Failure type of an edit the delegation refused: it does not fit the schema, or it widens. */
export const CARD_EDIT_REFUSED = 'CardEditRefused';
