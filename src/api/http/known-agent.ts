/**
 * A start names an agent the API knows, or it is a 404 at once, before Temporal is asked: a
 * delegation of an unknown agent would otherwise fail in its first activity.
 */
import { DeputyError } from '../../errors.js';

/** `names`: the agents that may be started now; undefined when the app was given none to check. */
export function assertKnownAgent(names: string[] | undefined, agent: string): void {
  if (names === undefined || names.includes(agent)) return;
  throw new DeputyError(
    'not-found',
    `no agent named '${agent}' (known agents: ${names.join(', ') || 'none'})`,
  );
}
