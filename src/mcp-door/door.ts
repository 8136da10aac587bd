/**
 * deputy as an MCP server: one low-level MCP `Server` per connection, for one caller.
 * `deputy mcp serve` puts it on stdio as the local operator; the API's `/mcp` route puts one per
 * Streamable HTTP session, as the bearer token's user (http-endpoint.ts). Both reach deputy
 * through the same Delegations facade and rights as every other door, so what a host starts is
 * an ordinary delegation: in Temporal, in the console and the CLI, durable across restarts.
 */
import { InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { LiveIndex } from '../definitions/registry/live-index.js';
import { isDeputyError } from '../errors.js';
import type { SecretMasker } from '../secrets/masker.js';
import type { Caller } from '../shared/caller.js';
import { VERSION } from '../version.js';
import type { PermissionMode } from '../shared/policy-contract.js';
import type { DelegationDetail, Delegations } from '../temporal/delegations/types.js';
import { createCardQuestions } from './card-questions.js';
import { callControlTool, controlTools, isControlTool } from './control-tools.js';
import { callAgentTool } from './agent-call.js';
import { agentTool } from './agent-tools.js';
import { createDelegationTaskStore } from './task-store.js';
import { argumentProblem, errorAnswer } from './tool-results.js';

export interface McpDoorDeps {
  delegations: Delegations;
  /** The agents, as the registry lists them now; a change is announced with tools/list_changed. */
  definitions: Pick<LiveIndex, 'list' | 'generation'>;
  /** Masks the configured secrets in every answer (no secret crosses the door). */
  secrets: SecretMasker;
  /**
   * A ceiling over every call this door serves (`deputy mcp serve --mode`): the runs it starts,
   * and the decisions it makes on any card (src/temporal/delegations/cards/decision-ceiling.ts).
   */
  callerMode?: PermissionMode;
  /** How often a parked call looks again, and the tool list is checked for changes. Default 500 ms. */
  pollMs?: number;
  log?: (message: string) => void;
}

export interface McpDoor {
  server: Server;
  close(): Promise<void>;
}

const INSTRUCTIONS =
  "deputy runs each agent tool as a durable delegation on Temporal, with only the tools its definition declares. A call waits for the agent's answer; `background: true` returns its id at once. Calls that need a person open approval cards: answered here when you support elicitation, else with deputy_decide, the CLI or the console.";

export function createMcpDoor(deps: McpDoorDeps, caller: Caller): McpDoor {
  const { delegations, secrets } = deps;
  const pollMs = deps.pollMs ?? 500;
  // Late-bound: the store tells the questions of each parked task it looks at.
  let askAbout: (state: DelegationDetail, taskId: string) => void = () => {};
  const server = new Server(
    { name: 'deputy', version: VERSION },
    {
      capabilities: {
        tools: { listChanged: true },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      instructions: INSTRUCTIONS,
      taskStore: createDelegationTaskStore({
        delegations,
        caller,
        secrets,
        onLook: (state) => askAbout(state, state.delegationId),
      }),
      // Only the questions on their way to the host: the cards themselves are in Temporal.
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  const ceiling = deps.callerMode === undefined ? {} : { ceiling: deps.callerMode };
  const questions = createCardQuestions({
    server,
    delegations,
    caller,
    secrets,
    ...ceiling,
    ...(deps.log === undefined ? {} : { onError: deps.log }),
  });
  askAbout = (state, taskId) => questions.sync(state, { relatedTask: { taskId } });
  // The SDK's receiving side ignores a cancellation of request id 0 (`if (!requestId) return`),
  // and a server's first request gets id 0: a ping spends it, so closing a card's question
  // (decided elsewhere) always reaches the host.
  server.oninitialized = () => {
    server.ping().catch(() => undefined);
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...deps.definitions.list().map(agentTool), ...controlTools()],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    try {
      if (isControlTool(name)) {
        return await callControlTool(
          { delegations, caller, secrets, ...ceiling },
          name,
          request.params.arguments ?? {},
          extra.signal,
        );
      }
      return await callAgentTool(
        {
          ...deps,
          caller,
          questions,
          pollMs,
          elicits: () => server.getClientCapabilities()?.elicitation !== undefined,
        },
        request,
        extra,
      );
    } catch (error) {
      // deputy's refusals (unknown id, no right, already decided) are results the model reads.
      if (isDeputyError(error)) return errorAnswer(secrets, error.message);
      // Arguments that do not fit the schema: said to the model, which can call again.
      if (error instanceof z.ZodError) return errorAnswer(secrets, argumentProblem(name, error));
      throw error;
    }
  });

  const stopWatching = announceToolListChanges(server, deps.definitions, pollMs);

  return {
    server,
    async close() {
      stopWatching();
      questions.close();
      await server.close();
    },
  };
}

/** Tells the host when the agent list changed: the registry reloads when a definition file does. */
function announceToolListChanges(
  server: Server,
  definitions: McpDoorDeps['definitions'],
  pollMs: number,
): () => void {
  let generation = definitions.generation();
  const watch = setInterval(() => {
    const now = definitions.generation();
    if (now === generation) return;
    generation = now;
    server.sendToolListChanged().catch(() => undefined);
  }, pollMs);
  watch.unref();
  return () => clearInterval(watch);
}
