/**
 * The smoke suite's workspace: a `models.catalog` naming the model under test (and the Anthropic
 * endpoint, when there is one), a file holding a fact no model can guess, and agents whose
 * prompts are short and plain: the local model is a 1.5B one, and the suite checks deputy's
 * mechanics with it, not the model's wits.
 */
import { stringify } from 'yaml';
import type { SmokeEndpoint } from './smoke-endpoint.js';

export const MAIN_HANDLE = 'smoke/main';
export const ANTHROPIC_HANDLE = 'smoke/anthropic';

/** The fact only `facts.txt` holds, on its first line (a model may ask `read` for one line). */
export const FACT_FILE = 'facts.txt';
export const FACT = 'PLUM-4721';

/** `max_tokens` of every answer: a small model that loses its way must not write for minutes. */
export const MAX_TOKENS = 512;

/**
 * A catalog entry for `endpoint`. Its key comes from `keyVariable` when that variable is set (a
 * hosted model); a local server needs none.
 */
function catalogEntry(endpoint: SmokeEndpoint, keyVariable: string): Record<string, unknown> {
  return {
    provider: endpoint.provider,
    model: endpoint.model,
    baseUrl: endpoint.baseUrl,
    maxTokens: MAX_TOKENS,
    ...(process.env[keyVariable] ? { apiKeyEnv: keyVariable } : {}),
  };
}

function agent(name: string, frontmatter: Record<string, unknown>, body: string) {
  return {
    [`.subagents/agents/${name}.md`]: `---\n${stringify({ name, ...frontmatter })}---\n${body}\n`,
  };
}

export function smokeWorkspace(
  main: SmokeEndpoint,
  anthropic: SmokeEndpoint | null,
): Record<string, string> {
  const catalog: Record<string, Record<string, unknown>> = {
    [MAIN_HANDLE]: catalogEntry(main, 'DEPUTY_SMOKE_API_KEY'),
  };
  if (anthropic !== null) {
    catalog[ANTHROPIC_HANDLE] = catalogEntry(
      anthropic,
      anthropic === main ? 'DEPUTY_SMOKE_API_KEY' : 'DEPUTY_SMOKE_ANTHROPIC_API_KEY',
    );
  }
  const reader = (name: string, model: string) =>
    agent(
      name,
      {
        description: 'Reads files in the workspace and answers questions about them',
        model,
        tools: ['read'],
        maxTurns: 4,
      },
      'You answer questions about the files of this workspace. Read the file with the read tool, then answer in one short sentence.',
    );
  return {
    '.subagents/config.yaml': stringify({ models: { default: MAIN_HANDLE, catalog } }),
    [FACT_FILE]: `The launch code is ${FACT}.\n`,
    ...reader('reader', MAIN_HANDLE),
    ...(anthropic === null ? {} : reader('anthropic-reader', ANTHROPIC_HANDLE)),
    ...agent(
      'scribe',
      {
        description: 'Writes files it is asked to write',
        model: MAIN_HANDLE,
        tools: ['write'],
        approvalMode: 'confirm',
        maxTurns: 3,
      },
      'You write files. To create a file, call the write tool with its path and content. When it is written, say so in one sentence.',
    ),
    ...agent(
      'lead',
      {
        description: 'Hands every request to the reader agent',
        model: MAIN_HANDLE,
        tools: ['Task(reader)'],
        maxTurns: 3,
      },
      [
        'You cannot read files. Forward every question to the reader agent: reply with only a json object that calls Task, like this:',
        '{"name": "Task", "arguments": {"description": "ask the reader", "prompt": "<the question>", "subagent_type": "reader"}}',
        'When the Task result comes back, answer the user with it.',
      ].join('\n'),
    ),
  };
}
