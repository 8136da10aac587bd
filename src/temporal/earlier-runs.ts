/**
 * The events of a long delegation's (or session's) earlier runs. A run that continues as new
 * carries only its latest events to the next one (CARRIED_EVENTS), so the live run cannot
 * answer a reader who starts from the beginning, or from a point before its carried events.
 * Temporal keeps every run's history: each run's first event names the run it continued
 * (`continuedExecutionRunId`), and a closed run still answers the events query (a worker
 * replays its history), so the chain is walked back until the gap is filled. When an earlier
 * run can no longer answer (its history past the namespace's retention, or a workflow change
 * that cannot replay it), the reader is told, by a `starts-mid-run` event, how many events it
 * will not see, rather than getting a stream that silently starts in the middle.
 */
import type { Client } from '@temporalio/client';
import { DeputyError } from '../errors.js';
import type { DelegationEvent } from '../shared/delegation.js';
import { eventsQuery } from '../shared/workflow-contract/messages.js';
import { connectionFailureReason, isConnectionFailure } from './unreachable.js';

export interface EarlierRunsDeps {
  client: Client;
  /** How long one query of a closed run may take (a worker replays its history). Milliseconds. */
  queryTimeoutMs: number;
}

/**
 * The events after `afterSeq` and before `firstHeld` (the live run's oldest), oldest first,
 * read from the runs before `runId`; led by a `starts-mid-run` event for any it cannot read.
 */
export type EarlierEvents = (
  workflowId: string,
  runId: string,
  afterSeq: number,
  firstHeld: DelegationEvent,
) => Promise<DelegationEvent[]>;

/** Run links remembered (run id -> the run it continued); they never change. */
const LINK_CACHE_LIMIT = 5_000;
/**
 * Earlier runs' events remembered, the most recently read kept: a run with a successor is
 * closed, so its events never change, and reading them again costs a worker a whole replay.
 */
const RUN_EVENTS_CACHE_LIMIT = 8;
/** A chain longer than this is not walked further in one read: the rest is reported missing. */
const MAX_RUNS_WALKED = 500;

export function createEarlierEvents(deps: EarlierRunsDeps): EarlierEvents {
  const { client, queryTimeoutMs } = deps;
  const { namespace } = client.options;
  const links = new Map<string, string | null>();

  /** The run `runId` continued, from its first history event; null for the chain's first. */
  async function previousRun(workflowId: string, runId: string): Promise<string | null> {
    const known = links.get(runId);
    if (known !== undefined) return known;
    const response = await client.withDeadline(Date.now() + queryTimeoutMs, () =>
      client.workflowService.getWorkflowExecutionHistory({
        namespace,
        execution: { workflowId, runId },
        maximumPageSize: 1,
      }),
    );
    const started = response.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
    const previous = started?.continuedExecutionRunId || null;
    if (links.size >= LINK_CACHE_LIMIT) links.delete(links.keys().next().value!);
    links.set(runId, previous);
    return previous;
  }

  const closedRuns = new Map<string, DelegationEvent[]>();

  /** Every event closed run `runId` held (those carried into it included). */
  async function eventsOf(workflowId: string, runId: string): Promise<DelegationEvent[]> {
    const known = closedRuns.get(runId);
    if (known !== undefined) {
      closedRuns.delete(runId);
      closedRuns.set(runId, known);
      return known;
    }
    const handle = client.workflow.getHandle(workflowId, runId);
    const events = await client.withDeadline(Date.now() + queryTimeoutMs, () =>
      handle.query(eventsQuery, 0),
    );
    if (closedRuns.size >= RUN_EVENTS_CACHE_LIMIT)
      closedRuns.delete(closedRuns.keys().next().value!);
    closedRuns.set(runId, events);
    return events;
  }

  return async function earlierEvents(workflowId, runId, afterSeq, firstHeld) {
    // Walked newest first: each earlier run holds the events before the ones found so far.
    const segments: DelegationEvent[][] = [];
    let before = firstHeld.seq;
    let run: string | null = runId;
    try {
      for (let walked = 0; before > afterSeq + 1 && walked < MAX_RUNS_WALKED; walked++) {
        run = await previousRun(workflowId, run);
        if (run === null) break;
        const held = (await eventsOf(workflowId, run)).filter((event) => event.seq > afterSeq);
        segments.unshift(held.filter((event) => event.seq < before));
        // Nothing after `afterSeq` in that run: there is nothing before it to read either.
        before = Math.min(before, held[0]?.seq ?? afterSeq + 1);
      }
    } catch (error) {
      // No answer in time (a worker replaying a long run on a loaded machine) is not a history
      // that is gone: the reader is told to ask again, and loses nothing by it.
      if (isConnectionFailure(error)) {
        throw new DeputyError(
          'unavailable',
          `the earlier runs of ${workflowId} did not answer in time (${connectionFailureReason(error)}); ask again`,
          { cause: error },
        );
      }
      // Gone from Temporal (past retention), or a history this code can no longer replay:
      // said once, below, rather than a stream that fails on every poll from here on.
    }
    const found = segments.flat();
    if (before <= afterSeq + 1) return found;
    return [startsMidRun(before - 1, afterSeq, firstHeld.at), ...found];
  };
}

/**
 * Stands for the events after `afterSeq` up to `lastMissing`: its sequence number is the last
 * one it stands for, so a client that resumes after it (Last-Event-ID) asks for what follows.
 */
function startsMidRun(lastMissing: number, afterSeq: number, at: string): DelegationEvent {
  const count = lastMissing - afterSeq;
  return {
    seq: lastMissing,
    at,
    type: 'starts-mid-run',
    eventsNotReplayed: count,
    text: `This stream starts mid-run: the ${count} event(s) before it belong to earlier runs of this workflow (it continued as new) that could not be read.`,
  };
}
