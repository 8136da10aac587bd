/**
 * The agents the chaos scenarios delegate to: ordinary Markdown definitions whose model is
 * scripted (the only scripted thing in the suite). Each step's effect names the delegation
 * (`${task}` is the task text, a short tag the suite chooses) and the step, so effects can be
 * counted on disk afterwards: a line seen twice is a tool that ran twice.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Steps of the `stepper` agent, in order: what each does and which tool does it. */
export const STEPPER_STEPS = [
  { step: 1, tool: 'write', effect: 'file' },
  { step: 2, tool: 'bash', effect: 'line' },
  { step: 3, tool: 'edit', effect: 'line' },
  { step: 4, tool: 'read', effect: 'none' },
  { step: 5, tool: 'bash', effect: 'line' },
  { step: 6, tool: 'grep', effect: 'none' },
  { step: 7, tool: 'edit', effect: 'line' },
  { step: 8, tool: 'bash', effect: 'line' },
  { step: 9, tool: 'write', effect: 'file' },
] as const;

/** Steps where the suite may plant a kill: the bash command `kill -9`s its own worker. */
export const KILL_STEPS = STEPPER_STEPS.filter((s) => s.tool === 'bash').map((s) => s.step);

/** The line step `step` of delegation `tag` leaves in `fx/<tag>.log`. */
export function effectLine(tag: string, step: number, tool: string): string {
  return `${tag} s${step} ${tool}`;
}

/**
 * A bash step: its effect first, then, if the suite planted `kill/<tag>.s<step>`, it removes
 * the marker and SIGKILLs its parent: the worker process (src/tools/bash.ts spawns `bash -c`
 * straight from the worker; the watched-group shell `exec`s it, so $PPID is the worker). That
 * kill lands between the tool's side effect and its completion being recorded.
 */
function bashStep(step: number, sleepSeconds: number): string {
  const line = effectLine('${task}', step, 'bash');
  const marker = `kill/\${task}.s${step}`;
  const command =
    `echo '${line}' >> fx/\${task}.log; sleep ${sleepSeconds}; ` +
    `if [ -e ${marker} ]; then rm -f ${marker}; kill -9 $PPID; fi`;
  return `  - toolCalls: [{ name: bash, arguments: { command: ${JSON.stringify(command)} } }]\n`;
}

function editStep(step: number): string {
  const line = effectLine('${task}', step, 'edit');
  // Inserts a line before the marker: run twice, it would insert it twice.
  return `  - toolCalls: [{ name: edit, arguments: { path: "fx/\${task}.log", old_string: "MARK", new_string: "${line}\\nMARK" } }]\n`;
}

const STEPPER_SCRIPT =
  'turns:\n' +
  '  - text: Starting.\n' +
  '    toolCalls: [{ name: write, arguments: { path: "fx/${task}.log", content: "MARK\\n" } }]\n' +
  bashStep(2, 0.4) +
  editStep(3) +
  '  - toolCalls: [{ name: read, arguments: { path: "fx/${task}.log" } }]\n' +
  bashStep(5, 0.6) +
  '  - toolCalls: [{ name: grep, arguments: { pattern: "s2 bash", path: fx } }]\n' +
  editStep(7) +
  bashStep(8, 0.4) +
  '  - toolCalls: [{ name: write, arguments: { path: "fx/${task}.w9", content: "${task} s9 write\\n" } }]\n' +
  '  - text: "Done ${task}: ${lastToolResult}"\n';

/** Two cards: a write, then a bash append. Default approval mode, so both ask a human. */
const CARDED_SCRIPT = `turns:
  - text: Asking to write.
    toolCalls: [{ name: write, arguments: { path: "cards/\${task}.c1", content: "\${task} c1\\n" } }]
  - text: Asking to append.
    toolCalls: [{ name: bash, arguments: { command: "echo '\${task} c2' >> cards/\${task}.c2" } }]
  - text: "Done \${task}"
`;

/** One bash command that takes `seconds`, writing a line before and after (graceful stop). */
function sleeperScript(seconds: number): string {
  const command = `echo "\${task} begin" >> slow/\${task}.log; sleep ${seconds}; echo "\${task} end" >> slow/\${task}.log`;
  return `turns:
  - text: Working.
    toolCalls: [{ name: bash, arguments: { command: ${JSON.stringify(command)} } }]
  - text: "Result \${task}: \${lastToolResult}"
`;
}

function definition(name: string, script: string, approvalMode: string | null): string {
  return (
    `---\nname: ${name}\ndescription: chaos agent ${name}\nmodel: scripted:scripts/${script}\n` +
    `tools: [read, write, edit, bash, glob, grep]\nmaxTurns: 20\n` +
    (approvalMode === null ? '' : `approvalMode: ${approvalMode}\n`) +
    `---\nFollow the script.\n`
  );
}

export const AGENTS = ['stepper', 'carded', 'sleeper'] as const;

/** Writes every chaos agent and its script into `workspace`, and the folders their tools use. */
export async function writeAgents(workspace: string, sleeperSeconds = 3): Promise<void> {
  const files: Record<string, string> = {
    '.subagents/agents/stepper.md': definition('stepper', 'stepper.yaml', 'full-access'),
    'scripts/stepper.yaml': STEPPER_SCRIPT,
    '.subagents/agents/carded.md': definition('carded', 'carded.yaml', null),
    'scripts/carded.yaml': CARDED_SCRIPT,
    '.subagents/agents/sleeper.md': definition('sleeper', 'sleeper.yaml', 'full-access'),
    'scripts/sleeper.yaml': sleeperScript(sleeperSeconds),
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), content);
  }
  for (const dir of ['fx', 'kill', 'cards', 'slow']) {
    await mkdir(join(workspace, dir), { recursive: true });
  }
}
