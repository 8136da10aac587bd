/**
 * The door's own tools besides the agents: follow, answer and stop delegations from the
 * host, under the same rules as the HTTP API (src/rights): a transcript is its owner's or an
 * admin's, a card is decided by whoever may decide it, a stop by the owner or an admin.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { cardVisibility } from '../rights/card-visibility.js';
import { assertMayStop } from '../rights/rights.js';
import { decideAs } from '../asks/decide-as.js';
import { DECISION_FIELDS } from '../asks/decision-body.js';
import { stateFor } from '../rights/transcript-view.js';
import type { SecretMasker } from '../secrets/masker.js';
import type { Caller } from '../shared/caller.js';
import type { PermissionMode } from '../shared/policy-contract.js';
import { DELEGATION_STATUSES } from '../shared/delegation.js';
import { isRecorded, type Delegations } from '../temporal/delegations/types.js';
import { ownFilter, statedCeiling } from './task-store.js';
import { cardSummary, finishedAnswer, unfinishedAnswer, valueAnswer } from './tool-results.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const DelegationIdSchema = z.string().min(1).max(200).describe('The delegation id (d-...)');

const CONTROL_SCHEMAS = {
  deputy_status: z.object({ delegationId: DelegationIdSchema }).strict(),
  deputy_result: z
    .object({
      delegationId: DelegationIdSchema,
      wait: z
        .boolean()
        .optional()
        .describe('Wait until it finishes or parks on a card (default false: answer at once)'),
    })
    .strict(),
  deputy_cards: z
    .object({
      session: z.string().min(1).max(200).optional().describe("Only this session's cards"),
    })
    .strict(),
  deputy_decide: z
    .object({
      cardId: z.string().min(1).max(220).describe('The card id (<delegation id>.<n>)'),
      ...DECISION_FIELDS,
      // The same fields, told to the host's model in its own words (the API's speak of HTTP).
      reason: DECISION_FIELDS.reason.describe('Shown to the agent on deny'),
      allow: DECISION_FIELDS.allow.describe(
        "decision 'approve': also allow the same tool and scope for the rest of the delegation, or with 'session' of its session (its own calls and every Task child)",
      ),
      arguments: DECISION_FIELDS.arguments.describe(
        "decision 'approve': run with these arguments (never wider than the card)",
      ),
    })
    .strict(),
  deputy_stop: z.object({ delegationId: DelegationIdSchema }).strict(),
  deputy_list: z
    .object({
      status: z.enum(DELEGATION_STATUSES).optional(),
      agent: z.string().min(1).max(200).optional(),
    })
    .strict(),
} as const;

export type ControlToolName = keyof typeof CONTROL_SCHEMAS;

const DESCRIPTIONS: Record<ControlToolName, string> = {
  deputy_status:
    "A delegation's state: status, rounds, pending and decided cards, denied calls, usage",
  deputy_result: "A delegation's final answer, or where it stands when it has not finished",
  deputy_cards: 'Approval cards waiting for a decision that you may decide',
  deputy_decide:
    "Approve (optionally with edited arguments, or for the rest of the delegation), deny, or answer in the tool's place an approval card; the first decision through any door wins",
  deputy_stop: 'Stop a delegation: its pending cards are settled as denials',
  deputy_list: 'Your delegations, newest first',
};

export function isControlTool(name: string): name is ControlToolName {
  return Object.hasOwn(CONTROL_SCHEMAS, name);
}

export function controlTools(): Tool[] {
  return (Object.keys(CONTROL_SCHEMAS) as ControlToolName[]).map((name) => ({
    name,
    description: DESCRIPTIONS[name],
    inputSchema: z.toJSONSchema(CONTROL_SCHEMAS[name], { io: 'input' }) as Tool['inputSchema'],
    annotations: {
      readOnlyHint: name !== 'deputy_decide' && name !== 'deputy_stop',
      destructiveHint: name === 'deputy_stop',
    },
  }));
}

export interface ControlDeps {
  delegations: Delegations;
  caller: Caller;
  secrets: SecretMasker;
  /** The door's ceiling (`deputy mcp serve --mode`): deputy_decide decides nothing beyond it. */
  ceiling?: PermissionMode;
}

type ControlHandler = (
  deps: ControlDeps,
  input: unknown,
  signal: AbortSignal,
) => Promise<CallToolResult>;

/** Each control tool; a refusal (403, 404, 409) is thrown as DeputyError for the door to say. */
const HANDLERS: Record<ControlToolName, ControlHandler> = {
  async deputy_status({ delegations, caller, secrets }, input) {
    const { delegationId } = CONTROL_SCHEMAS.deputy_status.parse(input);
    const state = await stateFor(delegations, caller, delegationId, () =>
      delegations.get(delegationId),
    );
    return valueAnswer(
      secrets,
      `delegation ${delegationId} (${state.agent}) is ${state.status}: ${state.roundsUsed} round(s), ${state.pendingCards.length} pending card(s)`,
      { ...state },
    );
  },

  async deputy_result({ delegations, caller, secrets }, input, signal) {
    const { delegationId, wait } = CONTROL_SCHEMAS.deputy_result.parse(input);
    // The answer is the transcript's: its owner's or an admin's.
    await assertMayStop(
      delegations,
      caller,
      delegationId,
      `reading delegation ${delegationId}'s result`,
    );
    const state = await delegations.get(delegationId);
    if (state.result !== null) {
      return finishedAnswer(secrets, state, state.result, statedCeiling(state));
    }
    if (wait !== true) return unfinishedAnswer(secrets, state, 'it has not finished yet');
    const settled = await delegations.settle(delegationId, { signal });
    if (settled.status === 'finished') {
      return finishedAnswer(secrets, state, settled.result, statedCeiling(state));
    }
    const why = settled.status === 'parked' ? 'it waits for a decision on a card' : settled.message;
    return unfinishedAnswer(secrets, settled.state, why);
  },

  async deputy_cards({ delegations, caller, secrets }, input) {
    const { session } = CONTROL_SCHEMAS.deputy_cards.parse(input);
    const visible = cardVisibility(delegations, caller);
    const cards = await visible(await delegations.cards(session === undefined ? {} : { session }));
    const lines = cards.map(
      (card) => `${card.id}: ${card.agent} asks to run ${card.tool} (${card.reason})`,
    );
    return valueAnswer(secrets, lines.length === 0 ? 'no card waits for you' : lines.join('\n'), {
      cards: cards.map((card) => ({
        ...cardSummary(card),
        delegationId: card.delegationId,
        agent: card.agent,
      })),
    });
  },

  async deputy_decide({ delegations, caller, secrets, ceiling }, input) {
    const { cardId, ...body } = CONTROL_SCHEMAS.deputy_decide.parse(input);
    // The same path as the API and the CLI, which also holds the decision to the door's ceiling
    // (the run may have started elsewhere). Combinations of fields are refused by the facade,
    // in its words, as a result the model reads.
    const outcome = await decideAs(delegations, caller, cardId, body, { ceiling });
    if (isRecorded(outcome)) return valueAnswer(secrets, outcome.message, { ...outcome });
    return valueAnswer(secrets, `card ${cardId}: ${outcome.state.status}`, { card: outcome });
  },

  async deputy_stop({ delegations, caller, secrets }, input) {
    const { delegationId } = CONTROL_SCHEMAS.deputy_stop.parse(input);
    await assertMayStop(delegations, caller, delegationId);
    const outcome = await delegations.stop(delegationId);
    return valueAnswer(
      secrets,
      'stopped' in outcome
        ? `delegation ${delegationId} stopped; its pending cards were denied`
        : `delegation ${delegationId} had already finished (${outcome.status})`,
      { delegationId, ...outcome },
    );
  },

  async deputy_list({ delegations, caller, secrets }, input) {
    const filter = CONTROL_SCHEMAS.deputy_list.parse(input);
    const rows = await delegations.list({ ...ownFilter(caller), ...filter });
    const lines = rows.map(
      (row) => `${row.delegationId} ${row.agent ?? '?'} ${row.status} ${row.task ?? ''}`,
    );
    return valueAnswer(secrets, lines.length === 0 ? 'no delegations' : lines.join('\n'), {
      delegations: rows,
    });
  },
};

export function callControlTool(
  deps: ControlDeps,
  name: ControlToolName,
  input: unknown,
  signal: AbortSignal,
): Promise<CallToolResult> {
  return HANDLERS[name](deps, input, signal);
}
