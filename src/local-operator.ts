/**
 * The person at this machine's terminal: who a decision made from the CLI is recorded as
 * (`cli:<login name>`), whether the CLI talks to Temporal itself or to the API's local socket
 * (src/local-socket.ts), so both paths record the same name.
 */
import { userInfo } from 'node:os';
import { ADMIN_ROLE, type Caller } from './shared/caller.js';

/** `cli:<login name>`: the name a card decided from this terminal records. */
export function localOperatorId(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    // No passwd entry (some containers): the decision is still recorded, by an unnamed user.
    return 'cli:unknown';
  }
}

/**
 * The caller of a request over the local socket: the data directory's owner, an admin as the CLI
 * with direct access to Temporal already is.
 */
export function localOperator(): Caller {
  return { id: localOperatorId(), roles: [ADMIN_ROLE] };
}

/**
 * What a CLI request over the local socket says of the Temporal target its own environment
 * names (header -> the variable it was read from), so an API serving another one refuses it
 * (src/api/http/local-caller.ts) and the CLI goes to Temporal itself.
 */
export const LOCAL_TARGET_HEADERS = {
  'x-deputy-temporal-address': 'TEMPORAL_ADDRESS',
  'x-deputy-temporal-namespace': 'TEMPORAL_NAMESPACE',
  'x-deputy-task-queue': 'DEPUTY_TASK_QUEUE',
} as const;
