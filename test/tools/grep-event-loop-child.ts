/**
 * Child process for the grep event-loop test: runs the real grep tool once on WORKSPACE while a
 * timer waits on the same event loop, then prints one JSON line: the tool's answer (or its
 * error), and how late the timer fired. A grep that blocked the loop would leave the timer
 * waiting until it finished; one that never finishes never prints, and the parent kills it.
 * Usage: node --import tsx grep-event-loop-child.ts WORKSPACE ARGUMENTS_JSON
 */
import { createFileSystemTools } from '../../src/tools/file-system.js';
import type { ToolContext } from '../../src/tools/tool.js';

/** When the timer is due, in milliseconds after grep starts. */
const TIMER_DUE_MS = 20;

const [workspace, argumentsJson] = process.argv.slice(2);
if (workspace === undefined || argumentsJson === undefined) {
  throw new Error('usage: grep-event-loop-child.ts WORKSPACE ARGUMENTS_JSON');
}
const grep = createFileSystemTools().find((tool) => tool.schema.name === 'grep');
if (grep === undefined) throw new Error('grep missing');
const context: ToolContext = {
  workspaceRoot: workspace,
  snapshot: {} as ToolContext['snapshot'],
  signal: new AbortController().signal,
  heartbeat: () => {},
};

const started = performance.now();
const timer = new Promise<number>((resolve) => {
  setTimeout(() => resolve(performance.now() - started - TIMER_DUE_MS), TIMER_DUE_MS);
});
let answer: { result: string } | { error: string };
try {
  answer = {
    result: await grep.run(JSON.parse(argumentsJson) as Record<string, unknown>, context),
  };
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
const timerLateMs = await timer;
process.stdout.write(`${JSON.stringify({ ...answer, timerLateMs })}\n`);
