/**
 * A session's main agent: resolved with Task, TaskOutput and TaskStop appended, its Task
 * listing every other agent with its description; `Task(a, b)` narrows the list; a delegate
 * resolved from the same file has none of them.
 */
import { describe, expect, it } from 'vitest';
import { MAIN_AGENT_FRAMING, SUBAGENT_FRAMING } from '../../src/capabilities/prompt.js';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import type { DelegateTarget } from '../../src/shared/tools/delegation-tools.js';
import { USER, input } from './helpers.js';

const AGENTS: DelegateTarget[] = [
  { name: 'helper', description: 'A helper', background: false },
  { name: 'reader', description: 'Reads files and says what they hold', background: false },
  { name: 'nightly', description: 'Rebuilds the index overnight', background: true },
];

function asSession(tools: string[] | null, extra: Parameters<typeof input>[0] = {}) {
  return resolveCapabilities(input({ tools, ...extra }, { session: { agents: AGENTS } }));
}

const names = (snapshot: ReturnType<typeof resolveCapabilities>) =>
  snapshot.tools.map((tool) => tool.name);

describe('a main agent', () => {
  it('gets the delegation tools after its own; Task lists every other agent with its description', () => {
    const snapshot = asSession(['read']);
    expect(names(snapshot)).toEqual(['read', 'Task', 'TaskOutput', 'TaskStop']);
    const task = snapshot.tools.find((tool) => tool.name === 'Task')!;
    expect(task.description).toContain('- reader: Reads files and says what they hold');
    expect(task.description).toContain(
      '- nightly: Rebuilds the index overnight (runs in the background)',
    );
    // Not itself: the agent being resolved is `helper`.
    expect(task.description).not.toContain('- helper:');
    expect(task.inputSchema).toMatchObject({
      required: ['description', 'prompt', 'subagent_type'],
      properties: { run_in_background: { type: 'boolean' }, model: { type: 'string' } },
    });
    expect(snapshot.delegation?.targets.map((target) => target.name)).toEqual([
      'reader',
      'nightly',
    ]);
    expect(snapshot.systemPrompt.startsWith(MAIN_AGENT_FRAMING)).toBe(true);
    expect(snapshot.diagnostics).toEqual([]);
  });

  it('reads Task, Agent, TaskOutput and TaskStop in its tools as no catalog tool and no error', () => {
    const snapshot = asSession(['Task', 'Agent', 'TaskOutput', 'TaskStop']);
    // An explicit list that names only delegation tools grants no catalog tool.
    expect(names(snapshot)).toEqual(['Task', 'TaskOutput', 'TaskStop']);
    expect(snapshot.diagnostics).toEqual([]);
  });

  it('narrows the agents with Task(a, b) and reports a name no agent has', () => {
    const snapshot = asSession(['read', 'Task(reader, ghost)', 'Agent(helper)']);
    expect(snapshot.delegation?.targets.map((target) => target.name)).toEqual(['reader']);
    const task = snapshot.tools.find((tool) => tool.name === 'Task')!;
    expect(task.description).toContain('- reader:');
    expect(task.description).not.toContain('- nightly:');
    expect(snapshot.diagnostics).toEqual([
      expect.objectContaining({
        code: 'task.unknown-agent',
        path: 'tools[1]',
        message: expect.stringContaining("'ghost'"),
      }),
      expect.objectContaining({
        code: 'task.unknown-agent',
        path: 'tools[2]',
        message: expect.stringContaining('itself'),
      }),
    ]);
  });

  it('loses delegation with disallowedTools: [Task], and says so', () => {
    const snapshot = asSession(['read'], { disallowedTools: ['Task'] });
    expect(names(snapshot)).toEqual(['read']);
    expect(snapshot.delegation).toBeUndefined();
    expect(snapshot.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'task.disallowed' }),
    );
  });

  it('keeps delegating under a caller without roles: the children resolve under the same roles', () => {
    const snapshot = resolveCapabilities(
      input({ tools: ['write'] }, { caller: USER, session: { agents: AGENTS } }),
    );
    expect(names(snapshot)).toEqual(['Task', 'TaskOutput', 'TaskStop']);
    expect(snapshot.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'tool.hidden-by-role' }),
    );
  });
});

describe('the same file as a delegate', () => {
  it('has no delegation tools, and its Task entries are diagnostics', () => {
    const snapshot = resolveCapabilities(input({ tools: ['read', 'Task', 'Task(reader)'] }));
    expect(names(snapshot)).toEqual(['read']);
    expect(snapshot.delegation).toBeUndefined();
    expect(snapshot.systemPrompt.startsWith(SUBAGENT_FRAMING)).toBe(true);
    expect(snapshot.diagnostics.map((d) => [d.path, d.code])).toEqual([
      ['tools[1]', 'tool.unknown'],
      ['tools[2]', 'tool.agent-pattern'],
    ]);
  });
});
