/**
 * The scripted model (MOD): replays a YAML script of turns, for tests and demos without an API
 * key. It is labelled `scripted:<path> (scripted model)` everywhere it shows, so nobody mistakes
 * its output for a real model's.
 *
 * Script format:
 *
 * ```yaml
 * description: optional, for humans
 * turns:
 *   - text: "I'll look at the README first."
 *     toolCalls:
 *       - name: read
 *         arguments: { path: README.md }
 *   - text: "Summary of ${task}: ${lastToolResult}"
 * ```
 *
 * Each turn is one assistant answer: `text` (default empty) and `toolCalls` (default none); a turn
 * must have at least one of them. In `text` and in string values inside `arguments`, `${task}` is
 * replaced by the first user message, `${lastToolResult}` by the content of the most recent
 * tool result (empty when there is none), `${lastTaskId}` by the most recent `task_id` a
 * tool result named (a session's Task answers with one), so a script can follow its own tasks,
 * and `${lastUserMessage}` by the most recent user message (a message sent to a running
 * delegation, or the task when none was), so a script can show what it was told.
 *
 * The model is stateless on purpose: the model-call activity may run on another worker after a
 * crash, so the turn to replay is derived from the request alone (the number of assistant
 * entries already in the transcript), and tool call ids are deterministic (`call_<turn>_<index>`).
 * Once the script is exhausted it answers a final text without tool calls, which ends the loop.
 *
 * Long runs: a turn's index counts the rounds a compaction replaced too, and a summary
 * request is answered with the script's `summary` (`${rounds}` replaced) or, without one, a
 * deterministic default naming the rounds and their tool calls. `contextTokens` makes the model
 * claim a context window, so a test can make a delegation compact after a few rounds.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { readRegularTextSync } from '../paths/regular-file.js';
import { isSummaryRequest, roundsIn } from '../shared/compaction.js';
import type {
  ModelRequest,
  ModelResponse,
  TokenUsage,
  ToolCallRequest,
  TranscriptEntry,
} from '../shared/model-contract.js';
import { ModelConfigError } from './model-adapter.js';
import type { ModelAdapter, ModelCallOptions } from './model-adapter.js';

export const ScriptedToolCallSchema = z
  .object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type ScriptedToolCall = z.infer<typeof ScriptedToolCallSchema>;

export const ScriptedTurnSchema = z
  .object({
    text: z.string().default(''),
    toolCalls: z.array(ScriptedToolCallSchema).default([]),
  })
  .strict()
  .refine((turn) => turn.text !== '' || turn.toolCalls.length > 0, {
    message: 'a turn needs a text or at least one tool call',
  });
export type ScriptedTurn = z.infer<typeof ScriptedTurnSchema>;

export const ScriptSchema = z
  .object({
    description: z.string().optional(),
    turns: z.array(ScriptedTurnSchema).min(1),
    /**
     * The answer to a summary request (a compaction); `${rounds}` is replaced by how
     * many rounds it summarizes. Absent: `defaultSummary`'s deterministic text.
     */
    summary: z.string().optional(),
    /** The context window, in tokens, the scripted model claims (compaction's trigger); absent: none. */
    contextTokens: z.number().int().min(1).optional(),
  })
  .strict();
export type Script = z.infer<typeof ScriptSchema>;

/** Options for `loadScriptedModel` and `createScriptedModel`. */
export interface ScriptedModelOptions {
  /**
   * The path as the user wrote it (e.g. `scripts/demo.yaml`), used in the label. Defaults to the
   * absolute path; pass the handle's relative path so labels do not reveal the host's layout.
   */
  displayPath?: string;
}

export function scriptedLabel(displayPath: string): string {
  return `scripted:${displayPath} (scripted model)`;
}

/** The text the scripted model answers once every turn has been replayed. */
export function exhaustedText(turnCount: number): string {
  return `[scripted model] script exhausted after ${turnCount} turns`;
}

/**
 * Scripts parsed before, by path, with the text they were parsed from. The file is read on every
 * call (an edited script takes effect at the next turn) but parsed again only when its text
 * changed: parsing YAML was most of a scripted model call's time.
 */
const parsedScripts = new Map<string, { source: string; script: Script }>();
const PARSED_SCRIPTS_KEPT = 64;

/** Reads and validates a script file. Throws `ModelConfigError` naming the file and the field. */
export function loadScript(absolutePath: string): Script {
  let source: string;
  try {
    source = readRegularTextSync(absolutePath);
  } catch (error) {
    throw new ModelConfigError(
      `scripted model ${absolutePath}: cannot read the script: ${(error as Error).message}`,
    );
  }
  const parsed = parsedScripts.get(absolutePath);
  if (parsed?.source === source) return parsed.script;
  const script = parseScript(absolutePath, source);
  parsedScripts.delete(absolutePath);
  if (parsedScripts.size >= PARSED_SCRIPTS_KEPT) {
    parsedScripts.delete(parsedScripts.keys().next().value as string);
  }
  parsedScripts.set(absolutePath, { source, script });
  return script;
}

function parseScript(absolutePath: string, source: string): Script {
  let raw: unknown;
  try {
    raw = parseYaml(source);
  } catch (error) {
    throw new ModelConfigError(`scripted model ${absolutePath}: not valid YAML${where(error)}`);
  }
  const parsed = ScriptSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`,
    );
    throw new ModelConfigError(
      `scripted model ${absolutePath} is invalid:\n${problems.join('\n')}`,
    );
  }
  return parsed.data;
}

/**
 * Where a YAML error is, without the parser's excerpt of the file: whoever reads the error may
 * not be allowed to read the file, and a path that is not a script at all (a repository's config,
 * a database) must not come back quoted.
 */
function where(error: unknown): string {
  const position = (error as { linePos?: Array<{ line: number; col: number }> }).linePos?.[0];
  const code = (error as { code?: unknown }).code;
  const at = position === undefined ? '' : ` at line ${position.line}, column ${position.col}`;
  return `${at}${typeof code === 'string' ? ` (${code})` : ''}`;
}

/** Reads a script file and returns an adapter that replays it. */
export function loadScriptedModel(
  absolutePath: string,
  options: ScriptedModelOptions = {},
): ModelAdapter {
  return createScriptedModel(loadScript(absolutePath), {
    displayPath: options.displayPath ?? absolutePath,
  });
}

/** An adapter over an already-parsed script (tests build scripts in code). */
export function createScriptedModel(
  script: Script,
  options: ScriptedModelOptions = {},
): ModelAdapter {
  const label = scriptedLabel(options.displayPath ?? '<inline>');
  return {
    label,
    provider: 'deputy.scripted',
    model: options.displayPath ?? '<inline>',
    ...(script.contextTokens === undefined ? {} : { contextTokens: script.contextTokens }),
    complete(request: ModelRequest, callOptions: ModelCallOptions): Promise<ModelResponse> {
      if (callOptions.signal?.aborted) {
        return Promise.reject(callOptions.signal.reason as Error);
      }
      const turn = replayTurn(script, request, label);
      // Said as OpenAI's API says it: the turn asks for tools, or it is the answer.
      return Promise.resolve({
        ...turn,
        finishReason: turn.toolCalls.length > 0 ? 'tool_calls' : 'stop',
      });
    },
  };
}

function replayTurn(script: Script, request: ModelRequest, label: string): ModelResponse {
  const { transcript } = request;
  if (isSummaryRequest(transcript)) return summaryTurn(script, request, label);
  // Rounds a compaction replaced count too: the script goes on where the model left off.
  const turnIndex = roundsIn(transcript);
  const turn = script.turns[turnIndex];
  if (turn === undefined) {
    const text = exhaustedText(script.turns.length);
    return { text, toolCalls: [], modelLabel: label, usage: scriptedUsage(request, text, []) };
  }
  const toolResults = transcript.filter((entry) => entry.role === 'tool').reverse();
  const variables: Variables = {
    task: transcript.find((entry) => entry.role === 'user')?.content ?? '',
    lastToolResult: toolResults[0]?.content ?? '',
    lastUserMessage:
      [...transcript].reverse().find((entry) => entry.role === 'user')?.content ?? '',
    lastTaskId:
      toolResults
        .map((entry) => TASK_ID_MENTION.exec(entry.content)?.[1])
        .find((id) => id !== undefined) ?? '',
  };
  const toolCalls: ToolCallRequest[] = turn.toolCalls.map((call, index) => ({
    id: `call_${turnIndex}_${index}`,
    name: call.name,
    arguments: substitute(call.arguments, variables) as Record<string, unknown>,
  }));
  const text = substitute(turn.text, variables) as string;
  return { text, toolCalls, modelLabel: label, usage: scriptedUsage(request, text, toolCalls) };
}

/**
 * A summary request's answer: the script's `summary`, else `defaultSummary` (a script need not
 * know about compaction to run long).
 */
function summaryTurn(script: Script, request: ModelRequest, label: string): ModelResponse {
  const entries = request.transcript.slice(0, -1);
  const rounds = roundsIn(entries);
  const text =
    script.summary === undefined
      ? defaultSummary(entries)
      : script.summary.replace(/\$\{rounds\}/g, String(rounds));
  return { text, toolCalls: [], modelLabel: label, usage: scriptedUsage(request, text, []) };
}

/** A deterministic summary: how many rounds, and which tools they called how often. */
export function defaultSummary(entries: readonly TranscriptEntry[]): string {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    if (entry.role !== 'assistant') continue;
    for (const call of entry.toolCalls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  }
  const calls = [...counts].map(([name, count]) => `${name} x${count}`).join(', ');
  return `[scripted model] summary of ${roundsIn(entries)} rounds; tool calls: ${calls || 'none'}`;
}

/**
 * The scripted model's token counts: deterministic, about four characters a token of what it
 * was sent and what it answers (no tokenizer: a stand-in for budgets and usage, not a measure).
 */
export function scriptedUsage(
  request: ModelRequest,
  text: string,
  toolCalls: ToolCallRequest[],
): TokenUsage {
  const sent =
    request.system.length +
    JSON.stringify(request.tools).length +
    request.transcript.reduce((sum, entry) => sum + entry.content.length, 0);
  return {
    inputTokens: Math.ceil(sent / 4),
    outputTokens: Math.ceil((text.length + JSON.stringify(toolCalls).length) / 4),
    cachedInputTokens: 0,
  };
}

type Variables = Record<'task' | 'lastToolResult' | 'lastTaskId' | 'lastUserMessage', string>;

/** How a Task result names its task (`task_id d-...`, src/workflows/session/task-tools.ts). */
const TASK_ID_MENTION = /task_id "?(d-[a-z0-9]+)/;

/** Replaces the `${...}` variables in strings, recursively through arrays and objects. */
function substitute(value: unknown, variables: Variables): unknown {
  if (typeof value === 'string') {
    // A replacer function, so `$&` and friends inside the task are not interpreted.
    return value.replace(
      /\$\{(task|lastToolResult|lastTaskId|lastUserMessage)\}/g,
      (_match, name: keyof Variables) => variables[name],
    );
  }
  if (Array.isArray(value)) {
    return value.map((item) => substitute(item, variables));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substitute(item, variables)]),
    );
  }
  return value;
}
