/**
 * A Task's id without a random number. The workflow's random numbers are one sequence
 * shared with everything that draws from it in the sandbox, and a traced worker's span ids do:
 * an id drawn from it would differ between a traced and an untraced worker replaying the same
 * run, and the child's workflow id with it. Derived instead from the run, the round and the call,
 * which replays cannot change. Sandbox code.
 */
import { patched, uuid4, workflowInfo } from '@temporalio/workflow';

/** Runs that drew their Task ids from `uuid4()` before this replay as they did. */
export const TASK_ID_PATCH = 'task-id-without-random';

export function newTaskId(round: number, callId: string): string {
  if (!patched(TASK_ID_PATCH)) return `d-${uuid4().replace(/-/g, '').slice(0, 12)}`;
  return `d-${fnv1a64(`${workflowInfo().runId}\n${round}\n${callId}`).slice(0, 12)}`;
}

/** FNV-1a, 64 bits, as 16 hex digits: spreads like a hash should, no crypto in the sandbox. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let index = 0; index < text.length; index++) {
    hash ^= BigInt(text.charCodeAt(index));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}
