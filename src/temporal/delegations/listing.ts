/**
 * Listing the runs of one workflow type, delegations or sessions alike: from visibility alone
 * (no worker needed), newest first. Status is filtered here, not in the query: a terminated
 * workflow never updated its DeputyStatus, so only the combination with the execution status
 * (statusOf) is the truth.
 */
import type { DelegationStatus } from '../../shared/delegation.js';
import { AGENT_ATTRIBUTE } from '../../shared/workflow-contract/search-attributes.js';
import { quote } from './ids.js';
import type { DelegationLookup } from './lookup.js';
import type { DelegationSummary } from './types.js';
import { memoStartedBy, summaryOf } from './visibility.js';

export interface ListNarrowing {
  agent?: string;
  status?: DelegationStatus;
  /** The user who started it (the memo's `startedBy`; memos are not searchable). */
  owner?: string;
}

/** Rows of `workflowType` matching `clauses` (validated visibility clauses) and the filter. */
export async function listSummaries(
  lookup: DelegationLookup,
  workflowType: string,
  clauses: string[],
  filter: ListNarrowing,
): Promise<DelegationSummary[]> {
  const query = [`WorkflowType = ${quote(workflowType)}`, ...clauses];
  if (filter.agent !== undefined) query.push(`${AGENT_ATTRIBUTE.name} = ${quote(filter.agent)}`);
  const rows: DelegationSummary[] = [];
  for (const info of await lookup.visible(query.join(' AND '))) {
    if (filter.owner !== undefined && memoStartedBy(info.memo) !== filter.owner) continue;
    const row = summaryOf(info);
    if (filter.status === undefined || row.status === filter.status) rows.push(row);
  }
  return rows.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}
