/**
 * What the MCP gateway's integration suites (test/integration/mcp-*.test.ts) share: starting a
 * delegation through the facade the API and the CLI use, waiting for its card or its end, and
 * reading what a user sees of it (its state, its events: each model turn's text, where the
 * scripted model repeats `${lastToolResult}`), plus the few history facts the suites assert on.
 */
import type { Client } from '@temporalio/client';
import { ANONYMOUS_CALLER } from '../../../src/shared/caller.js';
import type {
  ApprovalCard,
  DelegationEvent,
  DelegationResult,
  DelegationState,
} from '../../../src/shared/delegation.js';
import {
  createDelegations,
  type Delegations,
  type DelegationsOptions,
} from '../../../src/temporal/delegations/facade.js';
import { eventually } from '../../support/eventually.js';

export interface Started {
  delegationId: string;
  workflowId: string;
}

export function delegationsOn(
  client: Client,
  taskQueue: string,
  options: Partial<DelegationsOptions> = {},
): Delegations {
  return createDelegations(client, { namespace: 'default', taskQueue, ...options });
}

export async function delegate(
  delegations: Delegations,
  agent: string,
  task: string,
  session = 'mcp',
): Promise<Started> {
  const { delegationId, workflowId } = await delegations.start({
    agent,
    task,
    session,
    caller: ANONYMOUS_CALLER,
    options: {},
  });
  return { delegationId, workflowId };
}

/** The finished delegation's state (its result set). */
export function finished(
  delegations: Delegations,
  id: string,
  timeoutMs = 60_000,
): Promise<DelegationState & { result: DelegationResult }> {
  return eventually(
    async () => {
      const state = await delegations.get(id);
      return state.result === null
        ? undefined
        : (state as DelegationState & { result: DelegationResult });
    },
    `delegation ${id} to finish`,
    timeoutMs,
  );
}

/** The one pending card of a delegation, once it is parked on it. */
export async function pendingCard(
  delegations: Delegations,
  id: string,
  timeoutMs = 30_000,
): Promise<ApprovalCard> {
  const state = await eventually(
    async () => {
      const current = await delegations.get(id);
      return current.status === 'parked' && current.pendingCards.length === 1 ? current : undefined;
    },
    `delegation ${id} to park on a card`,
    timeoutMs,
  );
  return state.pendingCards[0]!;
}

/** Every event the delegation recorded (its `events` query, as the API's stream serves it). */
export function allEvents(delegations: Delegations, id: string): Promise<DelegationEvent[]> {
  return delegations.events(id, -1);
}

/** The text of each model turn, in order: what the scripted model said it read. */
export async function turnTexts(delegations: Delegations, id: string): Promise<string[]> {
  return (await allEvents(delegations, id)).flatMap((event) =>
    event.type === 'model-turn' ? [event.text] : [],
  );
}

/** The JSON `whoami` of the fixture server answers, found in a turn's text after `label`. */
export function whoamiIn(text: string, label: string): WhoAmI {
  const at = text.indexOf(label);
  if (at < 0) throw new Error(`no '${label}' in: ${text}`);
  const match = /\{[^{}]*\}/.exec(text.slice(at + label.length));
  if (match === null) throw new Error(`no JSON after '${label}' in: ${text}`);
  return JSON.parse(match[0]) as WhoAmI;
}

export interface WhoAmI {
  pid: number;
  calls: number;
  cancelled: number;
  session: string | null;
}

/** Each `runTool` activity of the history: its summary, attempts and how long it ran. */
export async function toolActivities(
  client: Client,
  workflowId: string,
): Promise<Array<{ summary: string; attempts: number[]; ms: number | null }>> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const at = (time: unknown) => {
    const stamp = time as { seconds?: { toNumber(): number } | number; nanos?: number } | null;
    if (stamp?.seconds == null) return null;
    const seconds = typeof stamp.seconds === 'number' ? stamp.seconds : stamp.seconds.toNumber();
    return seconds * 1000 + (stamp.nanos ?? 0) / 1e6;
  };
  return events.flatMap((event) => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== 'runTool') return [];
    const id = String(event.eventId);
    const started = events.filter(
      (other) => String(other.activityTaskStartedEventAttributes?.scheduledEventId ?? '') === id,
    );
    const closed = events.find((other) =>
      [
        other.activityTaskCompletedEventAttributes,
        other.activityTaskFailedEventAttributes,
        other.activityTaskTimedOutEventAttributes,
      ].some((attributes) => String(attributes?.scheduledEventId ?? '') === id),
    );
    const begin = at(started[0]?.eventTime);
    const end = at(closed?.eventTime);
    return [
      {
        summary: decodeSummary(event.userMetadata?.summary?.data),
        attempts: started.map((other) => other.activityTaskStartedEventAttributes?.attempt ?? 0),
        ms: begin === null || end === null ? null : end - begin,
      },
    ];
  });
}

function decodeSummary(data: Uint8Array | null | undefined): string {
  if (data == null) return '';
  const text = Buffer.from(data).toString('utf8');
  try {
    return String(JSON.parse(text));
  } catch {
    return text;
  }
}
