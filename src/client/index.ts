/**
 * `deputy/client`: a typed client for deputy. `createDeputyClient({ url, token })` talks to a
 * deputy API with nothing but `fetch`: this entry loads the client's own modules only, and takes
 * the API's shapes as types. `createLocalDeputyClient()`, the same client over a Temporal
 * connection for code that runs beside the workers, loads the server and so has its own entry,
 * `deputy/client/local` (./local/index.ts).
 */
export { createDeputyClient } from './deputy-client.js';
export type {
  AgentLevel,
  CardDecisionOptions,
  CardDecisionResult,
  CreateAgent,
  DelegationFilter,
  DelegationHandle,
  DeputyClient,
  DuplicateAgent,
  SessionFilter,
  SessionHandle,
  StartDelegation,
  StartedDelegation,
  StartedSession,
  StartSession,
  UpdateAgent,
} from './deputy-client.js';
export type { ScheduleMethods } from './schedule-client.js';
export type {
  CreateScheduleRequest,
  ScheduleDeleted,
  ScheduleDetail,
  ScheduleSummary,
  ScheduleTriggered,
} from '../api/contract.js';
export { DeputyClientError } from './client-error.js';
export type { ClientIssue } from './client-error.js';
export type { EventsOptions, StreamEvent } from './event-iterator.js';
export type { HttpOptions } from './http-transport.js';
export type {
  ApprovalCard,
  DelegationEvent,
  DelegationResult,
  DelegationState,
  DelegationStatus,
  SessionTask,
} from '../shared/delegation.js';
export type { SessionState } from '../shared/session.js';
export type { StateView, Withheld } from '../api/contract.js';
