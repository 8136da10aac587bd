/**
 * Approve with edited arguments, on the workflow's side: the calls behind the pending
 * cards (with their real, unredacted arguments), the check of an edit against the card
 * (src/policy/edit-scope.ts), and putting an accepted edit in the call that then runs.
 * Sandbox code: deterministic; a decision applies in history order, so a replay edits the same.
 */
import type { ResolvedAgent } from '../../shared/workflow-contract/activities.js';
import { editRefusal } from '../../policy/edit-scope.js';
import { CARD_EDIT_REFUSED } from '../../shared/cards/card-decision-shape.js';
import type { CardDecision } from '../../shared/delegation.js';
import { FAILURE_TYPES } from '../../shared/workflow-contract/failures.js';
import { redactSecrets } from '../../shared/redact.js';
import type { CardRejection } from './card-book.js';
import type { PlannedCall } from '../tool-calls.js';

export class CardEdits {
  /** The planned call of each pending card: the same object the round runs afterwards. */
  private readonly planned = new Map<string, PlannedCall>();

  remember(cardId: string, item: PlannedCall): void {
    this.planned.set(cardId, item);
  }

  /** Why an edit in `decision` cannot apply, or null when it can (or there is none). */
  rejectionOf(decision: CardDecision, resolved: ResolvedAgent | null): CardRejection | null {
    if (decision.arguments === undefined) return null;
    const item = this.planned.get(decision.cardId);
    if (item?.schema === undefined || resolved === null) {
      return {
        type: FAILURE_TYPES.cardDecisionInvalid,
        message: `card ${decision.cardId}'s call cannot be edited here: approve or deny it as shown`,
      };
    }
    const refusal = editRefusal({
      schema: item.schema,
      original: item.call.arguments,
      edited: decision.arguments,
      originalCommand: item.scope?.command,
      commandPatterns: resolved.snapshot.toolPatterns?.[item.schema.name],
    });
    return refusal === null ? null : { type: CARD_EDIT_REFUSED, message: refusal };
  }

  /**
   * Settles the card's call: with an accepted edit its arguments become the edited ones, and
   * the card records them (redacted). Returns what the card records, if anything.
   */
  settle(decision: CardDecision): Record<string, unknown> | undefined {
    const item = this.planned.get(decision.cardId);
    this.planned.delete(decision.cardId);
    if (decision.decision !== 'approve' || decision.arguments === undefined || !item)
      return undefined;
    item.call = { ...item.call, arguments: decision.arguments };
    return redactSecrets(decision.arguments) as Record<string, unknown>;
  }
}
