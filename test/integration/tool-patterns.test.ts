/**
 * `Bash(git status)` on a real Temporal dev server with a real worker, a real git repository
 * and the real bash tool: under approvalMode full-access the allowed command runs
 * without a card; `rm x`, `git status; rm x` and `git status $(rm x)` are refused by the
 * pattern, naming it, and `x` is still there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsQuery, stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, type Harness } from './support/harness.js';

const script = `turns:
  - text: Checking the repository.
    toolCalls: [{ name: bash, arguments: { command: "git status" } }]
  - text: "1: \${lastToolResult}"
    toolCalls: [{ name: bash, arguments: { command: "rm x" } }]
  - text: "2: \${lastToolResult}"
    toolCalls: [{ name: bash, arguments: { command: "git status; rm x" } }]
  - text: "3: \${lastToolResult}"
    toolCalls: [{ name: bash, arguments: { command: "git status $(rm x)" } }]
  - text: "4: \${lastToolResult}"
`;

const files = {
  '.claude/agents/git-reader.md': `---\nname: git-reader\ndescription: reads the git status\nmodel: scripted:scripts/git-reader.yaml\ntools: ['Bash(git status)']\napprovalMode: full-access\n---\nYou read git status.\n`,
  'scripts/git-reader.yaml': script,
  x: 'keep me\n',
};

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness(files);
  execFileSync('git', ['init', '-q'], { cwd: harness.workspace });
});

afterAll(async () => {
  await harness?.close();
});

describe('Bash(git status)', () => {
  it('runs git status, refuses rm, chaining and substitution, naming the pattern', async () => {
    const handle = await harness.start('git-reader', 'Report the status', { session: 'patterns' });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    const events = await handle.query(eventsQuery, 0);
    const texts = events.flatMap((event) => (event.type === 'model-turn' ? [event.text] : []));
    expect(texts[1]).toMatch(/^1: .*(No commits yet|On branch|Initial commit)/s);
    expect(texts[2]).toBe(
      "2: [tool 'bash' denied] 'rm x' is not allowed; allowed: Bash(git status)",
    );
    expect(texts[3]).toBe(
      "3: [tool 'bash' denied] 'rm x' is not allowed; allowed: Bash(git status)",
    );
    expect(texts[4]).toBe(
      "4: [tool 'bash' denied] the command contains a command substitution ($(rm x)), which no pattern covers; allowed: Bash(git status)",
    );
    const state = await handle.query(stateQuery);
    expect(state.pendingCards).toEqual([]);
    expect(state.decidedCards).toEqual([]);
    expect(state.deniedCalls.map((call) => [call.tool, call.by])).toEqual([
      ['bash', 'policy'],
      ['bash', 'policy'],
      ['bash', 'policy'],
    ]);
    expect(existsSync(join(harness.workspace, 'x'))).toBe(true);
  });
});
