/**
 * What a delegation carries into its next run when it continues-as-new. The snapshot
 * travels too: a long run never re-resolves its definition, so an edit mid-run still changes
 * nothing for it.
 */
import type { ResolvedAgent } from '../../shared/workflow-contract/activities.js';
import type {
  ApprovalCard,
  DeniedCall,
  DelegationEvent,
  UsageTotals,
} from '../../shared/delegation.js';
import type { TranscriptEntry } from '../../shared/model-contract.js';
import type { Grant } from '../../shared/policy-contract.js';
import type { SteeringMessage } from '../../shared/steering.js';

export interface CarriedState {
  resolved: ResolvedAgent;
  transcript: TranscriptEntry[];
  roundsUsed: number;
  cardSequence: number;
  /** The most recent decided cards (older ones stay in the earlier runs' histories). */
  decidedCards: ApprovalCard[];
  /** The most recent events, so a stream that attaches after the hand-over still resumes. */
  events: DelegationEvent[];
  nextEventSeq: number;
  /** How many runs came before this one. */
  previousRuns: number;
  /** The most recent denied calls; absent when carried by a run from before deputy 0.2. */
  deniedCalls?: DeniedCall[];
  /** Token totals so far; absent when carried by a run from before usage was counted. */
  usage?: UsageTotals;
  /** Messages sent to it: the waiting ones, and the latest delivered; absent: none. */
  messages?: SteeringMessage[];
  /** Grants a person gave for the rest of the delegation; absent: none. */
  grants?: Grant[];
  /** The session's grants as last heard from it (a Task child); absent: none. */
  sessionGrants?: Grant[];
}

/**
 * Continue well before Temporal's own limits (about 50,000 events / 50 MB): a delegation's
 * model-call inputs grow with its transcript, so history bytes matter as much as events.
 */
export const HISTORY_EVENTS_LIMIT = 2_000;
export const HISTORY_BYTES_LIMIT = 8 * 1024 * 1024;
export const CARRIED_EVENTS = 200;
export const CARRIED_DECIDED_CARDS = 100;
export const CARRIED_DENIED_CALLS = 100;
