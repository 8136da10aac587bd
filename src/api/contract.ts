/**
 * The API's shapes as types, for the code on the other side of HTTP: the web console (web/src)
 * and the client (src/client) import them from here and from nowhere else in src/api. Types only,
 * each from the schema its route validates or answers with, so the three never drift apart.
 * Requests are what a caller may send (`z.input`: defaults and coercions not yet applied).
 */
import type { z } from 'zod';
import type { ResumeDelegationBodySchema } from './delegations/steering-schemas.js';
import type {
  AgentLevelQuerySchema,
  AgentListSchema,
  AgentMutationSchema,
  CreateAgentBodySchema,
  DuplicateAgentBodySchema,
  RevisionSchema,
  RevisionTextSchema,
  UpdateAgentBodySchema,
} from './agents/schemas.js';
import type {
  DelegationStartedSchema,
  ListDelegationsQuerySchema,
  StartDelegationBodySchema,
} from './delegations/schemas.js';
import type { ListSessionsQuerySchema, StartSessionBodySchema } from './sessions/schemas.js';

// Agents, their check and the text generation of the editor.
export type {
  AgentDetail,
  AgentSummary,
  CreateAgentBody,
  DuplicateAgentBody,
  UpdateAgentBody,
} from './agents/schemas.js';
export type AgentList = z.infer<typeof AgentListSchema>;
export type AgentMutation = z.infer<typeof AgentMutationSchema>;
export type Revision = z.infer<typeof RevisionSchema>;
export type RevisionText = z.infer<typeof RevisionTextSchema>;
export type CreateAgentRequest = z.input<typeof CreateAgentBodySchema>;
export type UpdateAgentRequest = z.input<typeof UpdateAgentBodySchema>;
export type DuplicateAgentRequest = z.input<typeof DuplicateAgentBodySchema>;
export type AgentLevelRequest = z.input<typeof AgentLevelQuerySchema>;
export type { AgentCheck, CheckDiagnostic } from './agents/check-schemas.js';
export type { GenerationEvent, GenerationKind } from './generate/schemas.js';

// Delegations and sessions.
export type { StartDelegationBody } from './delegations/schemas.js';
export type DelegationStarted = z.infer<typeof DelegationStartedSchema>;
export type StartDelegationRequest = z.input<typeof StartDelegationBodySchema>;
export type DelegationListRequest = z.input<typeof ListDelegationsQuerySchema>;
export type StartSessionRequest = z.input<typeof StartSessionBodySchema>;
export type SessionListRequest = z.input<typeof ListSessionsQuerySchema>;
export type { StateView, Withheld } from '../rights/transcript-view.js';
export type ResumeDelegationRequest = z.input<typeof ResumeDelegationBodySchema>;
export type { SteeringMessage } from '../shared/steering.js';

// Schedules: recurring delegations.
import type {
  CreateScheduleBodySchema,
  ScheduleDeletedSchema,
  ScheduleDetailSchema,
  ScheduleSummarySchema,
  ScheduleTriggeredSchema,
} from './schedules/schemas.js';
export type CreateScheduleRequest = z.input<typeof CreateScheduleBodySchema>;
export type ScheduleSummary = z.infer<typeof ScheduleSummarySchema>;
export type ScheduleDetail = z.infer<typeof ScheduleDetailSchema>;
export type ScheduleTriggered = z.infer<typeof ScheduleTriggeredSchema>;
export type ScheduleDeleted = z.infer<typeof ScheduleDeletedSchema>;

// The approvals inbox's events.
export type { CardOutcome, CardStreamEvent } from './cards/stream.js';
/** One result of `POST /cards/decisions` (several cards decided in one request). */
import type { CardDecisionResultSchema } from './cards/batch-schemas.js';
export type CardDecisionResult = z.infer<typeof CardDecisionResultSchema>;

// The workspace: catalogs, pickers, MCP servers.
export type { ModelCatalog, ToolCatalog } from './workspace/catalog-schemas.js';
export type { DirectoryList, SkillList } from './workspace/schemas.js';
export type {
  McpServerEntry,
  McpServerList,
  McpServerTools,
  McpTrustAnswer,
} from '../mcp-client/mcp-view-schemas.js';
