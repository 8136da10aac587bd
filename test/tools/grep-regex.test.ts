import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapabilitySnapshot } from '../../src/shared/capability-snapshot.js';
import { createFileSystemTools } from '../../src/tools/file-system.js';
import type { ToolContext, ToolImplementation } from '../../src/tools/tool.js';
import { ToolError } from '../../src/tools/tool.js';
import { budgetFrom } from '../support/calibration.js';

/**
 * grep's regular expressions come from the model: they run on a linear-time engine (RE2
 * syntax), off the event loop, under a time budget. These tests hold each of those promises.
 */

let workspace: string;
let controller: AbortController;

function context(): ToolContext {
  return {
    workspaceRoot: workspace,
    snapshot: {} as CapabilitySnapshot,
    signal: controller.signal,
    heartbeat: () => {},
  };
}

function grepOf(tools: ToolImplementation[]): ToolImplementation {
  const tool = tools.find((candidate) => candidate.schema.name === 'grep');
  if (tool === undefined) throw new Error('grep missing');
  return tool;
}

const grep = grepOf(createFileSystemTools());

async function failure(args: Record<string, unknown>): Promise<string> {
  try {
    await grep.run(args, context());
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error(`expected grep ${JSON.stringify(args)} to fail`);
}

beforeEach(async () => {
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'deputy-grep-')));
  controller = new AbortController();
  await fs.writeFile(
    path.join(workspace, 'a.ts'),
    'const TODO = 1;\n// todo: later\nlet total = 42;\nconst re = "(a+)+$";\n',
  );
});

afterEach(async () => {
  controller.abort();
  await fs.rm(workspace, { recursive: true, force: true });
});

/** Child processes of the event-loop test still running, ended after each test. */
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

/**
 * Runs grep in a child process (test/tools/grep-event-loop-child.ts) and reads its report, with
 * how long the child took from spawn to exit. With `guardMs` the child is killed, and the call
 * fails, when it has not answered by then; without, the test's own timeout is the guard.
 */
function grepInChild(
  args: Record<string, unknown>,
  guardMs?: number,
): Promise<{ report: Record<string, unknown>; ms: number }> {
  const script = fileURLToPath(new URL('./grep-event-loop-child.ts', import.meta.url));
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', script, workspace, JSON.stringify(args)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A grep that blocks its event loop on a catastrophic pattern never answers: this turns
    // that hang into a failure that says so.
    const guard =
      guardMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL');
            reject(
              new Error(
                `grep did not answer within ${Math.round(guardMs)} ms: its event loop is blocked\n${stderr}`,
              ),
            );
          }, guardMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(guard);
      children.delete(child);
      if (code !== 0) reject(new Error(`grep child exited ${code}: ${stderr}`));
      else
        resolve({
          report: JSON.parse(stdout) as Record<string, unknown>,
          ms: performance.now() - began,
        });
    });
  });
}

describe('grep with a catastrophic pattern', () => {
  it('answers (a+)+$ on a 100,000-character line, and a timer on the same loop still fires', async () => {
    const line = `${'a'.repeat(100_000)}b`;
    await fs.writeFile(path.join(workspace, 'long.txt'), `${line}\n`);

    // The baseline, in the same child on the same file: a pattern with nothing to backtrack.
    // How late its timer fires and how long the child takes is what this machine does now.
    const benign = await grepInChild({ pattern: 'b$', path: 'long.txt' });
    expect(benign.report.result).toBe(
      `long.txt:1: ${'a'.repeat(400)} [line cut: showed 400 of 100001 characters]`,
    );
    // A loop held by backtracking holds the timer for the whole match, which never ends; 20
    // benign latenesses or 1 s is far short of that and far above a loop that stays free.
    const late = budgetFrom('the timer beside a benign grep', Number(benign.report.timerLateMs), {
      factor: 20,
      floorMs: 1_000,
    });
    // The child as a whole: 5 benign runs or 20 s before it counts as hung.
    const guardMs = budgetFrom('a benign grep child', benign.ms, {
      factor: 5,
      floorMs: 20_000,
    }).boundMs;

    const none = await grepInChild({ pattern: '(a+)+$', path: 'long.txt' }, guardMs);
    expect(none.report.result).toBe("No matches for '(a+)+$' in long.txt");
    late.expectWithin(Number(none.report.timerLateMs), 'the timer beside (a+)+$');

    const some = await grepInChild({ pattern: '(a+)+b$', path: 'long.txt' }, guardMs);
    expect(some.report.result).toBe(
      `long.txt:1: ${'a'.repeat(400)} [line cut: showed 400 of 100001 characters]`,
    );
    late.expectWithin(Number(some.report.timerLateMs), 'the timer beside (a+)+b$');
  }, 60_000);

  it('stops a pattern that is slow even in linear time at the time budget, loop free meanwhile', async () => {
    // A 2,000-state pattern on a 100,000-character line takes seconds even in RE2's
    // linear-time engine (time grows with pattern size times text size).
    await fs.writeFile(
      path.join(workspace, 'slow.txt'),
      `${'é'.repeat(50_000)}${'x'.repeat(50_000)}\n`,
    );
    await fs.writeFile(path.join(workspace, 'z-after.txt'), 'never reached\n');
    const budgeted = grepOf(createFileSystemTools({ limits: { grepMaxMatchMs: 300 } }));

    const events: string[] = [];
    const timer = setTimeout(() => events.push('timer'), 20);
    try {
      const result = await budgeted.run(
        { pattern: '(?i)\\pL{1000}\\pN{1000}', glob: '*.txt' },
        context(),
      );
      events.push('grep');
      // On a loaded machine RE2's compile of the 2,000-state pattern alone can outlast 0.3 s
      // (CI saw it): the budget then ends before slow.txt, and says so; nothing is searched either way.
      expect(result).toMatch(
        /^\[time budget of 0\.3 s for matching reached (while searching slow\.txt|before the pattern was ready): 2 of 2 files were not searched; simplify the pattern or narrow the path or glob\]$/,
      );
    } finally {
      clearTimeout(timer);
    }
    // The timer was due long before the budget ran out: it fired while grep was matching.
    expect(events).toEqual(['timer', 'grep']);
  }, 30_000);

  it('stops at once when the delegation is stopped', async () => {
    await fs.writeFile(
      path.join(workspace, 'slow.txt'),
      `${'é'.repeat(50_000)}${'x'.repeat(50_000)}\n`,
    );
    const running = grep.run({ pattern: '(?i)\\pL{1000}\\pN{1000}', path: 'slow.txt' }, context());
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toThrow('grep was cancelled');
  });
});

describe('grep pattern syntax (RE2)', () => {
  it('names each unsupported feature in a clear error', async () => {
    expect(await failure({ pattern: '(to)\\1' })).toBe(
      "unsupported regular expression '(to)\\1': backreferences (\\1) are not supported; grep uses RE2 syntax, which runs in linear time; match the repeated text itself, or search for the first part and read the lines",
    );
    expect(await failure({ pattern: '(?<w>to)\\k<w>' })).toMatch(
      /^unsupported regular expression '\(\?<w>to\)\\k<w>': backreferences \(\\k<w>\) are not supported;/,
    );
    expect(await failure({ pattern: 'todo(?=:)' })).toBe(
      "unsupported regular expression 'todo(?=:)': lookahead ((?=...)) is not supported; grep uses RE2 syntax, which runs in linear time; match the following text as part of the pattern, or leave it out and read the lines",
    );
    expect(await failure({ pattern: 'todo(?!:)' })).toMatch(
      /^unsupported regular expression 'todo\(\?!:\)': negative lookahead \(\(\?!\.\.\.\)\) is not supported;/,
    );
    expect(await failure({ pattern: '(?<=(const) )TODO' })).toMatch(
      /^unsupported regular expression '\(\?<=\(const\) \)TODO': a capturing group inside a lookbehind is not supported; .*write \(\?:\.\.\.\) inside the lookbehind$/,
    );
  });

  it('explains invalid and oversized patterns', async () => {
    expect(await failure({ pattern: 'a**' })).toBe(
      "invalid regular expression 'a**': invalid nested repetition operator: `**`; set fixed_strings to search for literal text",
    );
    expect(await failure({ pattern: '.{1000}'.repeat(200) })).toMatch(
      /^regular expression of 1400 characters is too large: it compiles to 200002 instructions, over grep's limit of 100000; use a shorter pattern or smaller repeat counts$/,
    );
  });

  it('keeps the JavaScript syntax RE2 shares, lookbehind and \\u escapes included', async () => {
    const hits = async (args: Record<string, unknown>): Promise<string> =>
      grep.run({ path: 'a.ts', ...args }, context());
    expect(await hits({ pattern: '\\d+' })).toBe(
      'a.ts:1: const TODO = 1;\na.ts:3: let total = 42;',
    );
    expect(await hits({ pattern: '\\bto\\w+' })).toBe(
      'a.ts:2: // todo: later\na.ts:3: let total = 42;',
    );
    expect(await hits({ pattern: '(?<word>todo):' })).toBe('a.ts:2: // todo: later');
    expect(await hits({ pattern: '(?<=// )todo' })).toBe('a.ts:2: // todo: later');
    expect(await hits({ pattern: '(?<!// )todo', ignore_case: true })).toBe(
      'a.ts:1: const TODO = 1;',
    );
    expect(await hits({ pattern: '\\u0074od\\u{6F}' })).toBe('a.ts:2: // todo: later');
    expect(await hits({ pattern: 'later\\-?$' })).toBe('a.ts:2: // todo: later');
    expect(await hits({ pattern: '^[^\\s/]+ TODO' })).toBe('a.ts:1: const TODO = 1;');
  });

  it('searches literally with fixed_strings, also with ignore_case', async () => {
    expect(await grep.run({ pattern: '(a+)+$', fixed_strings: true }, context())).toBe(
      'a.ts:4: const re = "(a+)+$";',
    );
    expect(
      await grep.run({ pattern: 'TODO:', fixed_strings: true, ignore_case: true }, context()),
    ).toBe('a.ts:2: // todo: later');
    expect(await grep.run({ pattern: '(?=', fixed_strings: true }, context())).toBe(
      "No matches for '(?=' in .",
    );
  });
});
