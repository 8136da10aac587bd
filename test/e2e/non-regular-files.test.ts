/**
 * FIFOs where deputy reads files, through the real `deputy` command: a FIFO at `.mcp.json`, as
 * a definition file or as a skill file is a diagnostic, and a FIFO the agent reads is a tool
 * error, however often; `deputy dev` keeps running delegations and stops on SIGINT. Every FIFO has
 * no writer, so an open that blocks would hang: each command runs under a guard that kills it,
 * and `afterAll` opens every FIFO read-write (which never blocks) to release any open still stuck.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { budgetFrom, timed, type Budget, type BudgetRule } from '../support/calibration.js';
import { eventually } from '../support/eventually.js';
import { DEPUTY_BIN, printedApiUrl, spawnCaptured, type Outcome } from './run-deputy.js';

const FIFO_REFUSAL = 'is a FIFO (named pipe), not a regular file';
/**
 * How long a command that should answer at once may take before it counts as hung: the same
 * command in a workspace with no FIFO is the baseline (a start-up of the CLI takes seconds here
 * by itself), measured once per file; 4 of those, or 15 s. A blocked open never ends at all.
 */
const HANG: BudgetRule = { factor: 4, floorMs: 15_000 };
let hangGuard: Promise<Budget> | undefined;

function guard(): Promise<Budget> {
  hangGuard ??= (async () => {
    const { workspace, dataDir } = newWorkspace();
    write(join(workspace, '.subagents', 'agents', 'helper.md'), HELPER);
    const { value: plain, ms } = await timed(() =>
      runDeputyIn(workspace, dataDir, ['agents', 'list']),
    );
    expect(plain.code, plain.stderr).toBe(0);
    return budgetFrom('`deputy agents list` with no FIFO', ms, HANG);
  })();
  return hangGuard;
}

const fifos: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const fifo of fifos) {
    try {
      fs.closeSync(fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
    } catch {
      // Removed with its workspace.
    }
  }
});

function mkfifo(file: string): void {
  fs.mkdirSync(dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
  fifos.push(file);
}

function write(file: string, content: string): void {
  fs.mkdirSync(dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function newWorkspace(): { workspace: string; dataDir: string } {
  const workspace = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), 'deputy-fifo-ws-')));
  return { workspace, dataDir: join(workspace, '.deputy-data') };
}

function environment(workspace: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    DEPUTY_TASK_QUEUE: `fifo-${randomUUID()}`,
    DEPUTY_USER_DIR: join(workspace, '.user-config'),
  };
  delete env.DEPUTY_PORT;
  return env;
}

/** `deputy <args>` in `workspace`, killed after `guardMs` (code null, `hung`) if it has not ended. */
function runDeputyIn(
  workspace: string,
  dataDir: string,
  args: string[],
  guardMs?: number,
): Promise<Outcome & { hung: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [DEPUTY_BIN, '--workspace', workspace, '--data-dir', dataDir, ...args],
      { env: environment(workspace), cwd: workspace },
    );
    children.push(child);
    let stdout = '';
    let stderr = '';
    let hung = false;
    const timer =
      guardMs === undefined
        ? undefined
        : setTimeout(() => {
            hung = true;
            child.kill('SIGKILL');
          }, guardMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, hung });
    });
  });
}

/**
 * `deputy <args>` in `workspace` under the hang guard; `hung` true when it was killed, with the
 * guard's numbers at the end of stderr.
 */
async function deputy(
  workspace: string,
  dataDir: string,
  args: string[],
): Promise<Outcome & { hung: boolean }> {
  const budget = await guard();
  const outcome = await runDeputyIn(workspace, dataDir, args, budget.boundMs);
  if (!outcome.hung) return outcome;
  return { ...outcome, stderr: `${outcome.stderr}\n(killed: no end within ${budget.formula})` };
}

/** What GET /delegations/:id says of a run, as far as these tests look. */
interface RunState {
  status: string;
  transcriptSummary: string[];
  result: { text: string } | null;
}

const HELPER = '---\nname: helper\ndescription: A helper\n---\nHelp.\n';

describe('deputy and files that are not regular', () => {
  it('agents list answers at once with a FIFO at .mcp.json, and names it', async () => {
    const { workspace, dataDir } = newWorkspace();
    write(join(workspace, '.subagents', 'agents', 'helper.md'), HELPER);
    mkfifo(join(workspace, '.mcp.json'));
    const listed = await deputy(workspace, dataDir, ['agents', 'list']);
    expect(listed.hung, listed.stderr).toBe(false);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('helper (project): A helper');
    expect(listed.stderr).toContain(`${join(workspace, '.mcp.json')} ${FIFO_REFUSAL}`);
  }, 60_000);

  it('a FIFO as a definition file is a diagnostic; the other agents are listed', async () => {
    const { workspace, dataDir } = newWorkspace();
    write(join(workspace, '.subagents', 'agents', 'helper.md'), HELPER);
    const piped = join(workspace, '.subagents', 'agents', 'piped.md');
    mkfifo(piped);
    const listed = await deputy(workspace, dataDir, ['agents', 'list']);
    expect(listed.hung, listed.stderr).toBe(false);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('helper (project): A helper');
    expect(listed.stdout).toContain('demo (builtin');
    expect(listed.stdout).toContain(`${piped} ${FIFO_REFUSAL} [file.unreadable]`);
  }, 60_000);

  it('a FIFO as a skill file is a diagnostic of the agent that declares it', async () => {
    const { workspace, dataDir } = newWorkspace();
    write(
      join(workspace, '.subagents', 'agents', 'helper.md'),
      '---\nname: helper\ndescription: A helper\nskills: [piped]\n---\nHelp.\n',
    );
    const skill = join(workspace, '.subagents', 'skills', 'piped', 'SKILL.md');
    mkfifo(skill);
    const listed = await deputy(workspace, dataDir, ['agents', 'list']);
    expect(listed.hung, listed.stderr).toBe(false);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('helper (project): A helper');
    const shown = await deputy(workspace, dataDir, ['agents', 'show', 'helper']);
    expect(shown.hung, shown.stderr).toBe(false);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      `skill at ${skill} skipped: cannot be read: ${skill} ${FIFO_REFUSAL}`,
    );
  }, 60_000);

  it('deputy dev: four FIFO reads are tool errors, the next run completes, a FIFO .mcp.json is reported, SIGINT stops it', async () => {
    const { workspace, dataDir } = newWorkspace();
    mkfifo(join(workspace, 'pipe'));
    write(join(workspace, 'README.md'), '# a workspace with a FIFO\n');
    write(
      join(workspace, '.subagents', 'agents', 'pipe-reader.md'),
      '---\nname: pipe-reader\ndescription: Reads the pipe\nmodel: scripted:pipe.yaml\ntools: [read]\nmaxTurns: 8\n---\nRead.\n',
    );
    const readPipe =
      '  - text: Reading the pipe.\n    toolCalls: [{ name: read, arguments: { path: pipe } }]\n';
    write(
      join(workspace, 'pipe.yaml'),
      `turns:\n${readPipe.repeat(4)}  - text: "Last answer: \${lastToolResult}"\n`,
    );

    const dev = spawnCaptured(
      process.execPath,
      [DEPUTY_BIN, 'dev', '--workspace', workspace, '--data-dir', dataDir, '--port', '0'],
      { env: environment(workspace), cwd: workspace },
    );
    children.push(dev.child);
    const apiUrl = await printedApiUrl(dev, 120_000);

    const run = async (): Promise<RunState> => {
      const response = await fetch(`${apiUrl}/delegations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent: 'pipe-reader', task: 'Read the pipe' }),
      });
      expect(response.status).toBe(201);
      const { delegationId } = (await response.json()) as { delegationId: string };
      return eventually(
        async () => {
          const response = await fetch(`${apiUrl}/delegations/${delegationId}`);
          const state = (await response.json()) as RunState;
          return state.status === 'running' ? undefined : state;
        },
        `delegation ${delegationId} to finish`,
        60_000,
        250,
      );
    };

    const first = await run();
    expect(first.status).toBe('completed');
    const refusal = `[tool 'read' failed] pipe ${FIFO_REFUSAL}; only regular files can be read`;
    expect(
      first.transcriptSummary.filter((line) => line === `read (error): ${refusal}`),
    ).toHaveLength(4);
    expect(first.result?.text).toBe(`Last answer: ${refusal}`);

    const second = await run();
    expect(second.status).toBe('completed');

    // A FIFO appearing at .mcp.json while it runs: its watcher reads the file again, and the
    // process stays alive to say why the file's servers are off.
    mkfifo(join(workspace, '.mcp.json'));
    const health = await eventually(
      async () => {
        const response = await fetch(`${apiUrl}/health`, { signal: AbortSignal.timeout(5_000) });
        const body = (await response.json()) as { mcpJson: { ok: boolean; message?: string } };
        return body.mcpJson.ok ? undefined : body.mcpJson;
      },
      'the health check to report .mcp.json',
      60_000,
      250,
    );
    expect(health.message).toContain(`${join(workspace, '.mcp.json')} ${FIFO_REFUSAL}`);

    // Stopped, it exits cleanly; one that never exits fails the test at its timeout.
    dev.child.kill('SIGINT');
    expect(await dev.exited).toBe(0);
  }, 240_000);
});
