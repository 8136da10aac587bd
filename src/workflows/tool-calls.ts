/**
 * One tool call of a round: what policy said, its card if it had one, and running it.
 * Sandbox code: the tool itself runs in an activity.
 */
import { ActivityFailure, isCancellation, patched, TimeoutFailure } from '@temporalio/workflow';
import type {
  ModelTurn,
  ResolvedAgent,
  RunToolInput,
  ToolOutcome,
} from '../shared/workflow-contract/activities.js';
import { decide } from '../policy/decide.js';
import { mcpScopeVerdict, mcpTarget } from '../policy/mcp-scope.js';
import { commandPatternRefusal, pathPatternRefusal } from '../policy/tool-patterns.js';
import type { McpServerRef } from '../shared/capability-snapshot.js';
import type { ApprovalCard } from '../shared/delegation.js';
import { isDelegationTool } from '../shared/tools/delegation-tools.js';
import type { ToolCallRequest } from '../shared/model-contract.js';
import type { Grant, UnattendedVerdict, Verdict } from '../shared/policy-contract.js';
import type { GrantCall } from '../policy/grants.js';
import { redactSecrets } from '../shared/redact.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import { isAtMostOnce, toolFailureText } from '../shared/tools/tool-contract.js';
import {
  activitiesWith,
  LOCAL_READ_TOOL,
  localActivitiesWith,
  ONCE_TOOL,
  READ_TOOL,
} from './activity-options.js';
import { answeredOutcome, editedOutcome } from './cards/card-outcomes.js';
import { activityCause, causeOf } from './failure-notice.js';
import { withSnapshot } from './continue-as-new/snapshot-carrier.js';

/** Marks runs that scope MCP calls by declared server and `approve` list. */
export const MCP_GATEWAY_PATCH = 'mcp-gateway';
/** Marks runs whose snapshot restricts tools by Claude Code patterns. */
export const TOOL_PATTERNS_PATCH = 'tool-patterns';
/**
 * Marks runs whose read-class tools run as local activities: a local activity is a
 * marker in history where an ordinary one is three events, so older runs replay as they ran.
 */
export const LOCAL_READS_PATCH = 'local-reads';

export interface PlannedCall {
  call: ToolCallRequest;
  schema: ToolSchema | undefined;
  verdict: Verdict;
  card: ApprovalCard | null;
  /**
   * Why the call cannot run as asked (its arguments: `ModelTurn.invalidCalls`): it is answered
   * with this, as a failed call, without policy, card or tool. Absent for a well-formed call.
   */
  invalid?: string;
  /** The call as a grant would scope it: set on a call policy asked about. */
  scope?: GrantCall;
}

/** Policy's verdict on each call of a model turn; a tool never given to the agent is denied. */
export function planCalls(
  turn: ModelTurn,
  resolved: ResolvedAgent,
  unattended: UnattendedVerdict | undefined,
  grants: Grant[] = [],
): PlannedCall[] {
  const { snapshot } = resolved;
  const toolsByName = new Map(snapshot.tools.map((tool) => [tool.name, tool]));
  return turn.toolCalls.map((call): PlannedCall => {
    const schema = toolsByName.get(call.name);
    // Nothing to decide about a call that cannot run: the model is told why and may call again.
    // Turns recorded before invalidCalls existed have none, and are planned as they were.
    const invalid = invalidReason(turn, call.id);
    if (invalid !== undefined)
      return { call, schema, verdict: { kind: 'allow' }, card: null, invalid };
    // Delegating writes nothing: Task, TaskOutput and TaskStop are never an approval item.
    // Only a session's snapshot has them; the child's own calls meet policy there.
    if (schema !== undefined && snapshot.delegation !== undefined && isDelegationTool(call.name)) {
      return { call, schema, verdict: { kind: 'allow' }, card: null };
    }
    const scoped = schema === undefined ? null : mcpScope(schema, call, snapshot.mcpServers);
    const paths = turn.callPaths[call.id] ?? [];
    const command = turn.callCommands?.[call.id];
    const verdict: Verdict = scoped?.verdict
      ? scoped.verdict
      : schema
        ? decide(
            {
              approvalMode: snapshot.approvalMode,
              // Absent from snapshots resolved before permissionMode was mapped: no flags.
              ...snapshot.policyFlags,
              workspaceRoot: resolved.workspaceRoot,
              writableRoots: resolved.writableRoots,
              // Absent from a snapshot resolved before protected paths existed: same decisions
              // as then, so its history replays.
              protectedRoots: resolved.protectedRoots ?? [],
              hiddenRoots: resolved.hiddenRoots ?? [],
              unattended: unattended ?? 'ask',
              // Only when a person gave any: older runs decide with the same input.
              ...(grants.length === 0 ? {} : { grants }),
            },
            {
              // An MCP call is named by its server and tool, so the card says what it reaches.
              toolName: scoped?.label ?? call.name,
              toolClass: schema.toolClass,
              paths,
              confined: schema.confined === true,
              // Absent from turns recorded before hard links were checked: decided as they were.
              linkedPaths: turn.linkedPaths?.[call.id] ?? [],
              calledName: call.name,
              ...(command === undefined ? {} : { command }),
              ...(scoped === null ? {} : { mcpTarget: scoped.label }),
            },
          )
        : { kind: 'deny', reason: unknownToolText(call.name, snapshot.tools) };
    // Tool patterns (`Bash(git:*)`, `Read(docs/**)`) deny what they do not cover, whatever
    // decide() said; what they cover keeps decide()'s verdict (a card, unless the mode allows).
    const refused = schema === undefined ? null : patternVerdict(schema, call, turn, resolved);
    const scope: GrantCall | undefined =
      schema === undefined
        ? undefined
        : {
            tool: call.name,
            toolClass: schema.toolClass,
            paths,
            command,
            ...(scoped === null ? {} : { mcpTarget: scoped.label }),
          };
    return { call, schema, verdict: refused ?? verdict, card: null, ...(scope && { scope }) };
  });
}

/** The turn's reason a call cannot run, if it has one (own keys only: ids come from a model). */
function invalidReason(turn: ModelTurn, callId: string): string | undefined {
  const invalid = turn.invalidCalls;
  return invalid !== undefined && Object.hasOwn(invalid, callId) ? invalid[callId] : undefined;
}

/**
 * The tool patterns' verdict on a call (src/policy/tool-patterns.ts), or null when they allow
 * it or the tool has none. Behind a patch; snapshots resolved before patterns carry none.
 */
function patternVerdict(
  schema: ToolSchema,
  call: ToolCallRequest,
  turn: ModelTurn,
  resolved: ResolvedAgent,
): Verdict | null {
  const patterns = resolved.snapshot.toolPatterns?.[schema.name];
  if (patterns === undefined || !patched(TOOL_PATTERNS_PATCH)) return null;
  const reason =
    schema.name === 'bash'
      ? commandPatternRefusal(patterns, turn.callCommands?.[call.id])
      : pathPatternRefusal(
          schema.name.charAt(0).toUpperCase() + schema.name.slice(1),
          patterns,
          resolved.workspaceRoot,
          turn.callPaths[call.id] ?? [],
        );
  return reason === null ? null : { kind: 'deny', reason };
}

/**
 * The gateway's scope for an MCP call (src/policy/mcp-scope.ts). Behind a patch: a delegation
 * that started before the gateway existed asked for a card for every MCP call, and replays so.
 */
function mcpScope(
  schema: ToolSchema,
  call: ToolCallRequest,
  servers: McpServerRef[],
): { verdict: Verdict | null; label: string } | null {
  const target = mcpTarget(schema, call.arguments);
  if (target === null || !patched(MCP_GATEWAY_PATCH)) return null;
  return { verdict: mcpScopeVerdict(target, servers), label: `${target.server}/${target.tool}` };
}

/**
 * Runs the call if policy (or its card) allows it; otherwise says why not.
 *
 * @param toolQueue the workspace's tool queue (rounds.ts); undefined: the workflow's own.
 */
export async function settleCall(
  item: PlannedCall,
  resolved: ResolvedAgent,
  toolQueue?: string,
): Promise<ToolOutcome> {
  const { call, schema, verdict, card } = item;
  if (card && card.state.status === 'denied') {
    return { content: `[tool '${call.name}' denied] ${card.state.reason}`, isError: true };
  }
  if (card && card.state.status === 'answered') return answeredOutcome(call.name, card.state);
  if (card?.state.status === 'approved' && card.state.editedArguments !== undefined) {
    const ran = await settleCall(
      { ...item, card: null, verdict: { kind: 'allow' } },
      resolved,
      toolQueue,
    );
    return editedOutcome(call.name, card.state, ran);
  }
  if (!card && verdict.kind === 'deny') {
    return { content: `[tool '${call.name}' denied] ${verdict.reason}`, isError: true };
  }
  if (!schema) return { content: toolFailureText(call.name, 'unknown tool'), isError: true };
  const summary = activitySummary(call, schema);
  try {
    return await withSnapshot(resolved, (carrier) =>
      runToolCall(schema, summary, { ...carrier, call }, toolQueue),
    );
  } catch (error) {
    if (isCancellation(error)) throw error;
    const cause =
      error instanceof ActivityFailure && isAtMostOnce(schema.toolClass)
        ? 'the tool may have started but did not report back (worker lost or timed out); ' +
          'it was not retried because it may already have taken effect'
        : causeOf(error);
    return { content: toolFailureText(call.name, cause), isError: true };
  }
}

/**
 * Writes, exec and MCP run at most once as ordinary activities. Reads run local; one that
 * outlasts the local budget runs again as an ordinary activity: while a local activity runs,
 * its workflow task stays open, and a stop or a state query waits for it.
 *
 * With a tool queue every call is an ordinary activity on it, reads too: a local activity runs
 * on the worker of the workflow task, which need not be one with the workspace.
 */
async function runToolCall(
  schema: ToolSchema,
  summary: string,
  input: RunToolInput,
  toolQueue: string | undefined,
): Promise<ToolOutcome> {
  if (isAtMostOnce(schema.toolClass)) {
    return activitiesWith(ONCE_TOOL, summary, toolQueue).runTool(input);
  }
  if (toolQueue !== undefined) return activitiesWith(READ_TOOL, summary, toolQueue).runTool(input);
  if (!patched(LOCAL_READS_PATCH)) return activitiesWith(READ_TOOL, summary).runTool(input);
  try {
    return await localActivitiesWith(LOCAL_READ_TOOL, summary).runTool(input);
  } catch (error) {
    if (!isTimeout(error)) throw error;
    return activitiesWith(READ_TOOL, summary).runTool(input);
  }
}

/** A local read past its budget: a TimeoutFailure, in either form (see activityCause). */
function isTimeout(error: unknown): boolean {
  return activityCause(error) instanceof TimeoutFailure;
}

/** What the Temporal UI shows for the activity: the tool, an MCP call's server/tool, a glimpse. */
function activitySummary(call: ToolCallRequest, schema: ToolSchema): string {
  const target = mcpTarget(schema, call.arguments);
  if (target === null) return `${call.name} ${describeArguments(call.arguments)}`;
  const args = schema.mcp === undefined ? call.arguments.arguments : call.arguments;
  const inner =
    args !== null && typeof args === 'object'
      ? describeArguments(args as Record<string, unknown>)
      : '';
  return `${call.name} ${target.server}/${target.tool} ${inner}`.trim();
}

/** A short, secret-free glimpse of a call's arguments: the first string value. */
function describeArguments(args: Record<string, unknown>): string {
  const redacted = redactSecrets(args) as Record<string, unknown>;
  const first = Object.values(redacted).find((value) => typeof value === 'string');
  return typeof first === 'string' ? first.replace(/\s+/g, ' ').slice(0, 80) : '';
}

/** What the model reads when it calls a tool it was never given (undeclared = unreachable). */
function unknownToolText(name: string, tools: ToolSchema[]): string {
  const available = tools.map((tool) => tool.name).join(', ') || 'none';
  return `You don't have a tool named '${name}'. Your tools: ${available}.`;
}
