/** Turning failures into text a person (or the model) can read. Sandbox code. */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';
import { FAILURE_TYPES } from '../shared/workflow-contract/failures.js';

/** The innermost useful message of an activity's or a child workflow's failure. */
export function causeOf(error: unknown): string {
  if ((error instanceof ActivityFailure || error instanceof ChildWorkflowFailure) && error.cause) {
    return error.cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * What an activity failed with. Unwrapped as well: a local activity's failure comes back from its
 * marker on replay without the ActivityFailure it had when it happened, so a branch on the cause
 * must read both forms alike, or replay takes the other branch.
 */
export function activityCause(error: unknown): unknown {
  return error instanceof ActivityFailure ? error.cause : error;
}

/** The notice of a delegation that ended as `failed`. */
export function failureNotice(error: unknown): string {
  const cause = activityCause(error);
  if (cause instanceof ApplicationFailure) {
    if (cause.type === FAILURE_TYPES.agentNotFound) return `Unknown agent: ${cause.message}`;
    if (cause.type === FAILURE_TYPES.modelConfig) return `Model not available: ${cause.message}`;
    if (cause.type === FAILURE_TYPES.transcriptMissing) return `Transcript lost: ${cause.message}`;
  }
  return `Delegation failed: ${causeOf(error)}`;
}
