/**
 * What the model reads when a person decided a card other than by a plain approve or deny.
 * Sandbox code.
 */
import type { ToolOutcome } from '../../shared/workflow-contract/activities.js';
import type { CardState } from '../../shared/delegation.js';

/**
 * A person answered in the tool's place: their text is the call's result, and the model is
 * told it is a person's answer, not the tool's output, so it does not take it for one.
 */
export function answeredOutcome(
  tool: string,
  state: Extract<CardState, { status: 'answered' }>,
): ToolOutcome {
  const who = state.decidedBy === null ? 'a person' : `a person (${state.decidedBy})`;
  return {
    content: `[tool '${tool}' did not run: ${who} answered in its place]\n${state.answer}`,
    isError: false,
  };
}

/**
 * The call ran with a person's edited arguments: the model is told so, with what they were,
 * before the tool's own result, so it does not assume its own arguments ran.
 */
export function editedOutcome(
  tool: string,
  state: Extract<CardState, { status: 'approved' }>,
  ran: ToolOutcome,
): ToolOutcome {
  const who = state.decidedBy === null ? 'a person' : `a person (${state.decidedBy})`;
  const edited = JSON.stringify(state.editedArguments);
  return {
    ...ran,
    content: `[tool '${tool}' ran with arguments edited by ${who}: ${edited}]\n${ran.content}`,
  };
}
