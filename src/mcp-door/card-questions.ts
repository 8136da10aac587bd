/**
 * Cards put to the host as elicitations: when the client declared elicitation,
 * each pending card of a delegation it follows becomes one question (approve / deny / a reason),
 * asked once per connection. The answer goes through the same decision path as every other door
 * (decideAs: rights, then `Delegations.decide`), so the first decision wins exactly once wherever it came
 * from; a card decided elsewhere closes the host's question (the request is cancelled).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { decideAs } from '../asks/decide-as.js';
import type { DecideCardBody } from '../asks/decision-body.js';
import type { SecretMasker } from '../secrets/masker.js';
import type { Caller } from '../shared/caller.js';
import { clip } from '../shared/clip.js';
import type { ApprovalCard } from '../shared/delegation.js';
import type { PermissionMode } from '../shared/policy-contract.js';
import type { DelegationDetail, Delegations } from '../temporal/delegations/types.js';

/** A person may take a while: a question stays open this long before the host gives up on it. */
const QUESTION_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export interface CardQuestions {
  /**
   * Asks the host about each pending card of `state` not asked yet on this connection, and
   * closes the questions of its cards that are no longer pending. No-op without elicitation.
   */
  sync(
    state: Pick<DelegationDetail, 'delegationId' | 'pendingCards'>,
    options?: RequestOptions,
  ): void;
  /** Closes every open question (the connection ends). */
  close(): void;
}

export interface CardQuestionsDeps {
  server: Server;
  delegations: Delegations;
  caller: Caller;
  secrets: SecretMasker;
  /** The door's ceiling (`deputy mcp serve --mode`): an answer beyond it is refused. */
  ceiling?: PermissionMode;
  /** Where a decision that failed is told (a refused or late answer); default: dropped. */
  onError?: (message: string) => void;
}

export function createCardQuestions(deps: CardQuestionsDeps): CardQuestions {
  const asked = new Set<string>();
  const open = new Map<string, { delegationId: string; controller: AbortController }>();

  const canAsk = (): boolean => deps.server.getClientCapabilities()?.elicitation !== undefined;

  async function askOne(card: ApprovalCard, options: RequestOptions): Promise<void> {
    const controller = new AbortController();
    open.set(card.id, { delegationId: card.delegationId, controller });
    try {
      const answer = await deps.server.elicitInput(questionFor(card, deps.secrets), {
        ...options,
        signal: controller.signal,
        timeout: QUESTION_TIMEOUT_MS,
      });
      const decision = decisionOf(answer);
      if (decision === null) return;
      await decideAs(deps.delegations, deps.caller, card.id, decision, { ceiling: deps.ceiling });
    } catch (error) {
      // Closed because it was decided elsewhere (or the connection went): nothing to report.
      if (controller.signal.aborted) return;
      deps.onError?.(`card ${card.id}: ${(error as Error).message}`);
    } finally {
      open.delete(card.id);
    }
  }

  return {
    sync(state, options = {}) {
      const pending = new Set(state.pendingCards.map((card) => card.id));
      for (const [id, question] of open) {
        if (question.delegationId === state.delegationId && !pending.has(id)) {
          question.controller.abort(new Error(`card ${id} was decided elsewhere`));
        }
      }
      if (!canAsk()) return;
      for (const card of state.pendingCards) {
        if (asked.has(card.id)) continue;
        asked.add(card.id);
        void askOne(card, options);
      }
    },
    close() {
      for (const question of open.values())
        question.controller.abort(new Error('connection closed'));
      open.clear();
    },
  };
}

/** The form a host shows: what the tool wants, why it asks, approve or deny, a reason. */
function questionFor(card: ApprovalCard, secrets: SecretMasker) {
  const args = clip(JSON.stringify(card.arguments, null, 2), 2000);
  return {
    mode: 'form' as const,
    message: secrets.text(
      `deputy: agent '${card.agent}' asks to run ${card.tool}.\n` +
        `Why it asks: ${card.reason}\nArguments:\n${args}\n` +
        `Card ${card.id} (delegation ${card.delegationId}).`,
    ),
    requestedSchema: {
      type: 'object' as const,
      properties: {
        decision: {
          type: 'string' as const,
          title: 'Decision',
          enum: ['approve', 'deny', 'answer'],
          enumNames: ['Approve', 'Deny', 'Answer in its place (the tool does not run)'],
        },
        reason: {
          type: 'string' as const,
          title: 'Reason',
          description: 'Optional; the agent reads it when the call is denied',
        },
        answer: {
          type: 'string' as const,
          title: 'Answer',
          description: "With 'Answer in its place': the text the agent reads as the tool's result",
        },
        allowRest: {
          type: 'boolean' as const,
          title: 'Allow the same calls for the rest of this delegation',
          description: "With 'Approve': the same tool and scope run without a card from now on",
          default: false,
        },
      },
      required: ['decision'],
    },
  };
}

/**
 * Accept carries the decision; decline is a denial; cancel (dismissed) decides nothing. An
 * answer without its text decides nothing either (the card stays pending, asked elsewhere).
 */
function decisionOf(answer: ElicitResult): DecideCardBody | null {
  if (answer.action === 'cancel') return null;
  if (answer.action === 'decline') return { decision: 'deny', reason: 'declined in the MCP host' };
  const { decision, reason, answer: text, allowRest } = answer.content ?? {};
  const said = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  switch (decision) {
    case 'approve':
      return {
        decision,
        ...(said(reason) === undefined ? {} : { reason: said(reason) }),
        ...(allowRest === true ? { allow: 'delegation' as const } : {}),
      };
    case 'deny':
      return { decision, ...(said(reason) === undefined ? {} : { reason: said(reason) }) };
    case 'answer':
      return said(text) === undefined ? null : { decision, answer: said(text)! };
    default:
      return null;
  }
}
