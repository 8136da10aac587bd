/**
 * The API's shapes, as the server declares them: type-only imports from its sources, so the
 * console and the API cannot drift apart silently (a changed field is a type error here).
 */
export type {
  ApprovalCard,
  DelegationEvent,
  DelegationState,
  DelegationStatus,
} from '../../../src/shared/delegation.js';
export type { AgentDetail, AgentSummary } from '../../../src/api/contract.js';
export type { ToolCatalog, ModelCatalog } from '../../../src/api/contract.js';
import type { StateView } from '../../../src/api/contract.js';
import type { DelegationState } from '../../../src/shared/delegation.js';

/** `GET /delegations/:id`: the state, or with auth its summary (`withheld`) for a non-owner. */
export type DelegationView = StateView<DelegationState>;

export interface ConsoleSettings {
  v: 1;
  authEnabled: boolean;
  temporalUi: string | null;
  namespace: string;
}
