/** The resolve-agent activity as a delegation and a session ask it. Sandbox code. */
import type { Caller } from '../shared/caller.js';
import type { PermissionMode } from '../shared/policy-contract.js';
import type { ResolveAgentInput, ResolvedAgent } from '../shared/workflow-contract/activities.js';
import { activitiesWith, RESOLVE_AGENT } from './activity-options.js';

/** What a delegation's and a session's input have in common for resolving its agent. */
interface ResolvingInput {
  agent: string;
  caller: Caller;
  options: { callerMode?: PermissionMode };
}

/**
 * Resolves the run's agent. Called only when the run carried none over; not async, so the
 * workflow awaits the activity's own promise, as it always has.
 *
 * @param extra the request's fields that are the run kind's own (a session's `asSession`, a
 *   delegation's models)
 */
export function resolveAgentNow(
  input: ResolvingInput,
  summary: string,
  toolQueue: string | undefined,
  extra: Omit<ResolveAgentInput, 'agent' | 'caller' | 'callerMode'>,
): Promise<ResolvedAgent> {
  const { resolveAgent } = activitiesWith(RESOLVE_AGENT, summary, toolQueue);
  return resolveAgent({
    agent: input.agent,
    caller: input.caller,
    ...extra,
    // Only when stated: a start without one resolves with the same input as before.
    ...(input.options.callerMode === undefined ? {} : { callerMode: input.options.callerMode }),
  });
}
