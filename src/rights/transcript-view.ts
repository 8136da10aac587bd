/**
 * Who reads a delegation's or a session's transcript, with auth on: an admin or the
 * user who started it, the rule that already guards fork (which reads a whole transcript too,
 * rights.ts). Anyone else still follows the work from a dashboard: the listings, the cards they
 * may decide, and the state of `GET /delegations/:id` and `GET /sessions/:id` as a summary
 * (status, rounds, tokens, model) with the transcript's content emptied. The event streams are
 * the transcript as it happens (every model turn, tool result and message): they answer 403.
 * Without auth every caller is anonymous and reads everything, as before.
 */
import type { Caller } from '../shared/caller.js';
import type { DelegationResult, DelegationState } from '../shared/delegation.js';
import type { SessionTask } from '../shared/delegation.js';
import type { Delegations } from '../temporal/delegations/types.js';
import { isOpenToAll, isOwnerOrAdmin, ownerOrAdminRefusal, unrestricted } from './rights.js';

/** Set on a state answered without its transcript: what was left out, and why. */
export interface Withheld {
  /** Names the rule: who may read it in full. */
  message: string;
  /** The fields emptied, or for the card lists, kept to the cards anyone may decide. */
  fields: string[];
}

/** A state as `GET /delegations/:id` and `GET /sessions/:id` answer it. */
export type StateView<T extends DelegationState> = T & { withheld?: Withheld };

/** What a summary empties (`result.*` only once there is a result). */
const STATE_FIELDS = [
  'transcriptSummary',
  'deniedCalls',
  'result.text',
  'result.deniedCalls',
  'pendingCards',
  'decidedCards',
];
/** And of a session's tasks: each child's answer so far and its result. */
const TASK_FIELDS = ['tasks[].lastText', 'tasks[].result.text', 'tasks[].result.deniedCalls'];

/** What the rule protects, in every refusal and summary. */
const CONTENT = 'transcript, tool results, messages and answers';

/**
 * The state `caller` may read of `id`: in full for its owner and an admin (and anyone without
 * auth), a summary for anyone else. `owners` is the facade the id belongs to.
 */
export async function stateFor<T extends DelegationState>(
  owners: Pick<Delegations, 'owner'>,
  caller: Caller,
  id: string,
  read: () => Promise<T>,
): Promise<StateView<T>> {
  // Both answer 404 for an unknown id; the owner is looked up only for a restricted caller.
  const [state, full] = await Promise.all([read(), isOwnerOrAdmin(owners, caller, id)]);
  return full ? state : summaryOf(state);
}

/**
 * The transcript's content taken out of a state: the lines of the transcript, denied calls (their
 * reasons quote arguments), the final answer and the children's answers. Cards stay only where
 * anyone may decide them (a `read`-class tool, as the inbox lists them), arguments included.
 */
export function summaryOf<T extends DelegationState>(state: T): StateView<T> {
  const tasks = (state as { tasks?: unknown }).tasks;
  const withTasks = Array.isArray(tasks);
  return {
    ...state,
    transcriptSummary: [],
    deniedCalls: [],
    // Messages sent to a running delegation are transcript too.
    ...(state.messages === undefined ? {} : { messages: [] }),
    pendingCards: state.pendingCards.filter((card) => isOpenToAll(card)),
    decidedCards: state.decidedCards.filter((card) => isOpenToAll(card)),
    result: resultSummary(state.result),
    // A session's state (also when asked for as a delegation) carries its children's answers.
    ...(withTasks
      ? {
          tasks: (tasks as SessionTask[]).map((task) => ({
            ...task,
            lastText: '',
            result: resultSummary(task.result),
          })),
        }
      : {}),
    withheld: {
      message: `${ownerOrAdminRefusal(`reading the ${CONTENT} of ${nameOf(state)}`).message}; this answer is its summary`,
      fields: [
        ...STATE_FIELDS,
        ...(state.messages === undefined ? [] : ['messages']),
        ...(withTasks ? TASK_FIELDS : []),
      ],
    },
  };
}

/** `session <id>` or `delegation <id>`. */
function nameOf(state: DelegationState): string {
  const kind = (state as { kind?: unknown }).kind === 'session' ? 'session' : 'delegation';
  return `${kind} ${state.delegationId}`;
}

function resultSummary(result: DelegationResult | null): DelegationResult | null {
  return result === null ? null : { ...result, text: '', deniedCalls: [] };
}

/** The event stream of `what` (`delegation <id>`, `session <id>`): refused unless `owner`'s. */
export function assertMayFollow(caller: Caller, owner: string | null, what: string): void {
  if (unrestricted(caller) || owner === caller.id) return;
  throw ownerOrAdminRefusal(`reading the events of ${what} (its ${CONTENT})`);
}

/** As assertMayFollow, looking the owner up only for a caller who is neither anonymous nor admin. */
export async function assertMayFollowId(
  owners: Pick<Delegations, 'owner'>,
  caller: Caller,
  id: string,
  what: string,
): Promise<void> {
  if (unrestricted(caller)) return;
  assertMayFollow(caller, await owners.owner(id), what);
}
