/**
 * The main agent's delegation tools: `Task`, `TaskOutput` and `TaskStop`, with Claude
 * Code's input shapes so prompts written for it work unchanged. Only a session's snapshot has
 * them; they run inside the session workflow (a child workflow, a wait, a cancel), never as an
 * activity, and are never an approval item (delegating writes nothing).
 */
import { objectSchema, stringProperty, type JsonSchema, type ToolSchema } from './tool-contract.js';

export const TASK_TOOL = 'Task';
export const TASK_OUTPUT_TOOL = 'TaskOutput';
export const TASK_STOP_TOOL = 'TaskStop';
export const DELEGATION_TOOL_NAMES: readonly string[] = [
  TASK_TOOL,
  TASK_OUTPUT_TOOL,
  TASK_STOP_TOOL,
];
export const DELEGATION_PROVIDER = 'Delegation';

/** An agent the main agent may hand work to, as the `Task` description lists it. */
export interface DelegateTarget {
  name: string;
  description: string;
  /** The definition's `background: true`: its `Task` returns at once. */
  background: boolean;
}

/** Longest `TaskOutput` wait, however long the model asks for (milliseconds). */
export const TASK_OUTPUT_MAX_WAIT_MS = 600_000;
export const TASK_OUTPUT_DEFAULT_WAIT_MS = 30_000;

const booleanProperty = (description: string): JsonSchema => ({ type: 'boolean', description });

/** The `Task` tool; its description names every agent it may start, with its description. */
export function taskToolSchema(targets: readonly DelegateTarget[]): ToolSchema {
  const listing =
    targets.length === 0
      ? 'No agents are available to delegate to.'
      : targets
          .map(
            (target) =>
              `- ${target.name}: ${target.description}${target.background ? ' (runs in the background)' : ''}`,
          )
          .join('\n');
  return {
    name: TASK_TOOL,
    provider: DELEGATION_PROVIDER,
    toolClass: 'read',
    description:
      'Hand a task to a subagent. It works with its own tools and prompt and answers with its ' +
      'result. Foreground (the default): you wait and get the result as this tool result. With ' +
      'run_in_background: true you get its task_id at once; follow it with TaskOutput and stop ' +
      'it with TaskStop. Write the prompt so the subagent can act without any other context.\n\n' +
      `Available agents (subagent_type):\n${listing}`,
    inputSchema: objectSchema(
      {
        description: stringProperty('A short (3-5 word) label for the task.'),
        prompt: stringProperty('The task for the subagent, complete in itself.'),
        subagent_type: stringProperty('Name of the agent to hand the task to.'),
        run_in_background: booleanProperty('Return at once with a task_id (default false).'),
        model: stringProperty("Optional model for this task instead of the agent's own."),
      },
      ['description', 'prompt', 'subagent_type'],
    ),
  };
}

export const TASK_OUTPUT_TOOL_SCHEMA: ToolSchema = {
  name: TASK_OUTPUT_TOOL,
  provider: DELEGATION_PROVIDER,
  toolClass: 'read',
  description:
    'Status and output of a task started with Task: its result once it finished, else what it ' +
    'has answered so far and whether it waits for an approval. Waits for it to finish first ' +
    '(block, default true) for at most timeout milliseconds (default 30000, at most 600000).',
  inputSchema: objectSchema(
    {
      task_id: stringProperty('The task_id Task returned.'),
      block: booleanProperty('Wait for the task to finish (default true).'),
      timeout: { type: 'number', description: 'Longest wait in milliseconds.' },
    },
    ['task_id'],
  ),
};

export const TASK_STOP_TOOL_SCHEMA: ToolSchema = {
  name: TASK_STOP_TOOL,
  provider: DELEGATION_PROVIDER,
  toolClass: 'read',
  description:
    'Stop a task started with Task. Its pending approval cards are denied; you get whatever ' +
    'result it had. Stopping a finished task changes nothing.',
  inputSchema: objectSchema({ task_id: stringProperty('The task_id Task returned.') }, ['task_id']),
};

export function delegationToolSchemas(targets: readonly DelegateTarget[]): ToolSchema[] {
  return [taskToolSchema(targets), TASK_OUTPUT_TOOL_SCHEMA, TASK_STOP_TOOL_SCHEMA];
}

export function isDelegationTool(name: string): boolean {
  return DELEGATION_TOOL_NAMES.includes(name);
}
