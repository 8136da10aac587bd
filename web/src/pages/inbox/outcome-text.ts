/** How a settled card is told to a person: one line, who decided and how. */
import type { CardOutcome } from '../../api/cards';
import type { ApprovalCard } from '../../api/types';

/** `approved by alice: looks fine`, `denied by its deadline`, from a card-closed outcome. */
export function outcomeText(outcome: CardOutcome | undefined): string {
  if (outcome === undefined) return 'Closed: its delegation ended or was stopped';
  const verb = { approve: 'Approved', deny: 'Denied', answer: 'Answered' }[outcome.decision];
  const by = outcome.expired === true ? ' by its deadline' : byWhom(outcome.decidedBy);
  const reason = outcome.reason === null || outcome.reason === '' ? '' : `: ${outcome.reason}`;
  return `${verb}${by}${reason}`;
}

/** The same line for a card whose state says how it was settled. */
export function cardStateText(card: ApprovalCard): string {
  const { state } = card;
  if (state.status === 'pending') return 'Pending';
  if (state.status === 'answered') return `Answered${byWhom(state.decidedBy)}: ${state.answer}`;
  const extras =
    state.status !== 'approved'
      ? ''
      : [
          state.editedArguments === undefined ? '' : ' with edited arguments',
          state.grant === undefined ? '' : ` and allowed for the rest (grant ${state.grant})`,
        ].join('');
  return `${outcomeText({
    decision: state.status === 'approved' ? 'approve' : 'deny',
    decidedBy: state.decidedBy,
    reason: state.reason,
    decidedAt: state.decidedAt,
    ...(state.expired === true ? { expired: true as const } : {}),
  })}${extras}`;
}

function byWhom(decidedBy: string | null): string {
  return decidedBy === null || decidedBy === '' ? '' : ` by ${decidedBy}`;
}
