/** How a settled card is told to a person: one line, who decided and how. */
import type { CardOutcome } from '../../api/cards';
import type { ApprovalCard } from '../../api/types';

/** `approved by alice: looks fine`, `denied by its deadline`, from a card-closed outcome. */
export function outcomeText(outcome: CardOutcome | undefined): string {
  if (outcome === undefined) return 'Closed: its delegation ended or was stopped';
  const verb = outcome.decision === 'approve' ? 'Approved' : 'Denied';
  const by = outcome.expired === true ? ' by its deadline' : byWhom(outcome.decidedBy);
  const reason = outcome.reason === null || outcome.reason === '' ? '' : `: ${outcome.reason}`;
  return `${verb}${by}${reason}`;
}

/** The same line for a card whose state says how it was settled. */
export function cardStateText(card: ApprovalCard): string {
  const { state } = card;
  if (state.status === 'pending') return 'Pending';
  return outcomeText({
    decision: state.status === 'approved' ? 'approve' : 'deny',
    decidedBy: state.decidedBy,
    reason: state.reason,
    decidedAt: state.decidedAt,
    ...(state.expired === true ? { expired: true as const } : {}),
  });
}

function byWhom(decidedBy: string | null): string {
  return decidedBy === null || decidedBy === '' ? '' : ` by ${decidedBy}`;
}
