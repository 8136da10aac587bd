import { ApplicationFailure } from '@temporalio/activity';
import type { SecretMasker } from '../secrets/masker.js';
import type { Caller } from '../shared/caller.js';
import type { BlobRef } from '../shared/model-contract.js';
import type { SnapshotStore } from './snapshot-store.js';
import type { ResolveAgentInput, ResolvedAgent } from '../shared/workflow-contract/activities.js';

/** How one resolution differs from a plain delegation's (ResolveAgentInput's optional fields). */
export type ResolveOptions = Omit<ResolveAgentInput, 'agent' | 'caller'>;
import { FAILURE_TYPES } from '../shared/workflow-contract/failures.js';
import { isPermissionMode, PERMISSION_MODES } from '../shared/policy-contract.js';

/** Turns an agent name and a caller into a snapshot; the worker builds it from the registry. */
export interface AgentResolver {
  /** The resolved agent, or null when no definition has that name. */
  resolve(agent: string, caller: Caller, options?: ResolveOptions): Promise<ResolvedAgent | null>;
  names(): string[];
}

/**
 * First step of every delegation: the snapshot it returns is recorded in history, so a
 * later edit of the definition changes nothing for this run and replay is deterministic. The
 * resolver builds the snapshot whole (src/capabilities/resolve.ts); here it is masked, stored,
 * and named by its reference, which is what the workflow receives.
 */
export async function resolveAgentActivity(
  agents: AgentResolver,
  input: ResolveAgentInput,
  masker: SecretMasker,
  snapshots: SnapshotStore,
): Promise<ResolvedAgent & { snapshotRef: BlobRef }> {
  const resolved = await resolveOrFail(agents, input);
  // The prompt carries the definition body, skills and resident memory, any of which may
  // quote a secret. Roots are left as they are: policy compares them with real paths.
  const snapshot = masker.value(resolved.snapshot);
  return { ...resolved, snapshot, snapshotRef: await snapshots.put(snapshot) };
}

/** The resolver's answer, or the non-retryable failure that says why there is none. */
async function resolveOrFail(
  agents: AgentResolver,
  { agent, caller, ...options }: ResolveAgentInput,
): Promise<ResolvedAgent> {
  // The doors check it; this is for a start that went round them (a client of Temporal's own).
  if (options.callerMode !== undefined && !isPermissionMode(options.callerMode)) {
    throw ApplicationFailure.nonRetryable(
      `unknown caller permission mode '${String(options.callerMode)}' (one of ${PERMISSION_MODES.join(', ')})`,
      FAILURE_TYPES.callerModeInvalid,
    );
  }
  let resolved: ResolvedAgent | null;
  try {
    resolved = await agents.resolve(agent, caller, options);
  } catch (error) {
    if (error instanceof UnknownModelError) {
      throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.modelConfig);
    }
    throw error;
  }
  if (!resolved) {
    const known = agents.names().join(', ') || 'none';
    throw ApplicationFailure.nonRetryable(
      `no agent named '${agent}' (known agents: ${known})`,
      FAILURE_TYPES.agentNotFound,
    );
  }
  return resolved;
}

/** A model asked for at resolution (`Task`'s `model`) that the catalog cannot run. */
export class UnknownModelError extends Error {
  override name = 'UnknownModelError';
}
