/**
 * Finding delegations in Temporal: delegation id -> workflow id (a bounded cache of this
 * process's own starts, then visibility), handles, descriptions and visibility listings, with
 * Temporal's "not found" turned into deputy's `not-found` error. Every call is bounded (rpc.ts):
 * with Temporal down they fail fast as `unavailable`.
 */
import {
  WorkflowNotFoundError,
  type Client,
  type WorkflowExecutionDescription,
  type WorkflowExecutionInfo,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  DELEGATION_ID_ATTRIBUTE,
  SESSION_ATTRIBUTE,
} from '../../shared/workflow-contract/search-attributes.js';
import { DeputyError } from '../../errors.js';
import { assertValidId, isValidId, quote } from './ids.js';
import { idempotentRpc } from '../calls/rpc.js';

/** Visibility is eventually consistent: a just-started workflow may take a moment to be listed. */
const FIND_RETRY_DELAYS_MS = [100, 200, 400];
/** Bound on the in-process id -> workflow id cache; visibility answers the rest. */
const KNOWN_CACHE_LIMIT = 1000;
const LIST_LIMIT = 500;

export interface DelegationLookup {
  /** Records a delegation's workflow id so a GET right after POST does not race visibility. */
  remember(delegationId: string, workflowId: string): void;
  /** Workflow id of a delegation; `not-found` when no such delegation exists. */
  find(delegationId: string): Promise<string>;
  handleOf(delegationId: string): Promise<WorkflowHandle>;
  /**
   * Whether a delegation or session already has this id (one visibility look, no retries): a
   * caller-chosen id must name one workflow only, or cards and lookups would be ambiguous.
   */
  taken(id: string): Promise<boolean>;
  /** Executions matching a visibility query, live runs only, at most LIST_LIMIT of them. */
  visible(query: string): Promise<WorkflowExecutionInfo[]>;
}

export function createDelegationLookup(client: Client): DelegationLookup {
  // Delegations started by this process, so a GET right after POST does not race visibility.
  const known = new Map<string, string>();

  function remember(delegationId: string, workflowId: string): void {
    if (known.size >= KNOWN_CACHE_LIMIT) {
      const oldest = known.keys().next().value;
      if (oldest !== undefined) known.delete(oldest);
    }
    known.set(delegationId, workflowId);
  }

  /** One visibility look: the workflow id of whatever carries this id, or null. */
  function lookOnce(id: string): Promise<string | null> {
    const query = `${DELEGATION_ID_ATTRIBUTE.name} = ${quote(id)}`;
    return idempotentRpc(client, async () => {
      for await (const info of client.workflow.list({ query })) return info.workflowId;
      return null;
    });
  }

  async function find(delegationId: string): Promise<string> {
    const cached = known.get(delegationId);
    if (cached !== undefined) return cached;
    if (!isValidId(delegationId)) throw notFound(delegationId);
    for (let attempt = 0; ; attempt++) {
      const workflowId = await lookOnce(delegationId);
      if (workflowId !== null) {
        remember(delegationId, workflowId);
        return workflowId;
      }
      const delay = FIND_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw notFound(delegationId);
      await sleep(delay);
    }
  }

  return {
    remember,
    find,
    async handleOf(delegationId) {
      return client.workflow.getHandle(await find(delegationId));
    },
    async taken(id) {
      return known.has(id) || (await lookOnce(id)) !== null;
    },
    visible(query) {
      // Collected under one deadline: every page of the listing shares the bound.
      return idempotentRpc(client, async () => {
        const rows: WorkflowExecutionInfo[] = [];
        for await (const info of client.workflow.list({ query })) {
          // A continued-as-new run shares its workflow id with the live run; list the live one.
          if (info.status.name === 'CONTINUED_AS_NEW') continue;
          rows.push(info);
          if (rows.length >= LIST_LIMIT) break;
        }
        return rows;
      });
    },
  };
}

export function describe(
  delegationId: string,
  handle: WorkflowHandle,
): Promise<WorkflowExecutionDescription> {
  return orNotFound(
    delegationId,
    idempotentRpc(handle.client, () => handle.describe()),
  );
}

/** Awaits `pending`, reporting a workflow that is gone as `not-found` for `delegationId`. */
export async function orNotFound<T>(delegationId: string, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw notFound(delegationId);
    throw error;
  }
}

export function notFound(delegationId: string): DeputyError {
  return new DeputyError('not-found', `no delegation with id '${delegationId.slice(0, 80)}'`);
}

/** Visibility clauses that narrow a listing to one session (validated: it enters a query). */
export function sessionClauses(session: string | undefined): string[] {
  if (session === undefined) return [];
  assertValidId('session', session);
  return [`${SESSION_ATTRIBUTE.name} = ${quote(session)}`];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
