/**
 * The facades' check of a caller's stated permission mode: a request reaches them
 * whichever door it came through, so an unknown mode is a clear `invalid` before Temporal.
 */
import { DeputyError } from '../errors.js';
import { callerModeProblem, type PermissionMode } from '../shared/policy-contract.js';

/** Throws `invalid` when a stated caller mode is not one of Claude Code's; absent is fine. */
export function assertValidCallerMode(value: PermissionMode | undefined): void {
  if (value === undefined) return;
  const problem = callerModeProblem(value);
  if (problem !== null) {
    throw new DeputyError('invalid', problem, {
      issues: [{ path: 'callerMode', message: problem }],
    });
  }
}
