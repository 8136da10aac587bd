/**
 * bash inside the declared sandbox, on a real Temporal dev server with a real worker and a real
 * bubblewrap: the task is the command (the scripted model runs `${task}`), and every escape is
 * asserted from outside (the file on disk, the text the delegation returned).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateLines } from '../../../src/cli/format.js';
import { stateQuery } from '../../../src/shared/workflow-contract/messages.js';
import { createHarness, type Harness } from '../support/harness.js';

const RUNS_TASK = `turns:
  - text: Running it.
    toolCalls: [{ name: bash, arguments: { command: "\${task}" } }]
  - text: "\${lastToolResult}"
`;

function agent(name: string, frontmatter: string): Record<string, string> {
  return {
    [`.subagents/agents/${name}.md`]: `---\nname: ${name}\ndescription: test agent ${name}\nmodel: scripted:scripts/run-task.yaml\ntools: [bash]\napprovalMode: full-access\n${frontmatter}\n---\nYou run the task.\n`,
  };
}

const PLANTED = 'planted-secret-5b1e0c';
const CONFIG_MARKER = 'config-marker-93d7';

let harness: Harness;
let outside: string;

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), 'deputy-outside-'));
  harness = await createHarness({
    'scripts/run-task.yaml': RUNS_TASK,
    // The workspace's default: agents that declare nothing run sandboxed.
    '.subagents/config.yaml': `# ${CONFIG_MARKER}\nsandbox: on\n`,
    ...agent('boxed', 'sandbox: on'),
    ...agent('by-default', ''),
    ...agent('unboxed', 'sandbox: off'),
    ...agent('typo', 'sandbox:\n  write: [out]\n  network: [example.com]'),
  });
  const planted = join(harness.config.dataDir, 'planted.txt');
  await mkdir(dirname(planted), { recursive: true });
  await writeFile(planted, `${PLANTED}\n`);
});

afterAll(async () => {
  await harness?.close();
  await rm(outside, { recursive: true, force: true });
  await rm(join(dirname(harness.workspace), `${sibling('unboxed')}`), { force: true });
});

function sibling(name: string): string {
  return `deputy-sandbox-sibling-${name}.txt`;
}

let lastWorkflowId = '';

async function run(name: string, command: string): Promise<string> {
  const handle = await harness.start(name, command, { session: name });
  lastWorkflowId = handle.workflowId;
  const result = await handle.result();
  expect(result.status).toBe('completed');
  return result.text ?? '';
}

describe('bash in a sandbox', () => {
  it('writes in the workspace, but not outside it nor in the data directory, and reads no secret', async () => {
    const dataDir = harness.config.dataDir;
    const text = await run(
      'boxed',
      [
        'echo inside > made-inside.txt && echo WROTE-INSIDE',
        `echo escaped > ${outside}/escaped.txt`,
        `echo escaped > ../${sibling('boxed')}`,
        `echo escaped > ${dataDir}/written.txt`,
        `cat ${dataDir}/planted.txt`,
        'cat .subagents/config.yaml',
        'true',
      ].join('; '),
    );
    expect(text).toContain('WROTE-INSIDE');
    expect(readFileSync(join(harness.workspace, 'made-inside.txt'), 'utf8')).toBe('inside\n');
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    expect(existsSync(join(dirname(harness.workspace), sibling('boxed')))).toBe(false);
    expect(existsSync(join(dataDir, 'written.txt'))).toBe(false);
    expect(text).not.toContain(PLANTED);
    expect(text).not.toContain(CONFIG_MARKER);
    // Nor in anything the delegation recorded: its history holds every tool result.
    const history = await harness.client.workflow.getHandle(lastWorkflowId).fetchHistory();
    // Payloads come base64-encoded (or as bytes): read them as the text they hold.
    const recorded = JSON.stringify(history, (key, value: unknown) =>
      value instanceof Uint8Array
        ? Buffer.from(value).toString('utf8')
        : key === 'data' && typeof value === 'string'
          ? Buffer.from(value, 'base64').toString('utf8')
          : value,
    );
    expect(recorded).toContain('WROTE-INSIDE');
    expect(recorded).not.toContain(PLANTED);
    expect(recorded).not.toContain(CONFIG_MARKER);
  });

  it('reaches no port of the host: not Temporal, not a listening server', async () => {
    // A listener standing in for deputy's API: it counts who reached it.
    let connections = 0;
    const server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const apiPort = (server.address() as AddressInfo).port;
    const temporalPort = harness.address.split(':').at(-1);
    try {
      const probe = (port: string | number | undefined, label: string) =>
        `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo ${label}-CONNECTED || echo ${label}-REFUSED`;
      const text = await run(
        'boxed',
        [probe(temporalPort, 'TEMPORAL'), probe(apiPort, 'API')].join('; '),
      );
      expect(text).toContain('TEMPORAL-REFUSED');
      expect(text).toContain('API-REFUSED');
      expect(text).not.toContain('CONNECTED');
      expect(connections).toBe(0);
      // The same probe without the sandbox does connect: the listener is really there.
      expect(await run('unboxed', probe(apiPort, 'API'))).toContain('API-CONNECTED');
      expect(connections).toBe(1);
    } finally {
      server.close();
    }
  });

  it("runs in the workspace's default sandbox when the definition declares none", async () => {
    const text = await run('by-default', `echo escaped > ${outside}/by-default.txt; echo ran`);
    expect(text).toContain('ran');
    expect(existsSync(join(outside, 'by-default.txt'))).toBe(false);
  });

  it('shows the bounds in the delegation state, and null when the sandbox is off', async () => {
    const boxed = await harness.start('boxed', 'true', { session: 'state' });
    await boxed.result();
    expect((await boxed.query(stateQuery)).sandbox).toEqual({
      readOnly: [],
      readWrite: [harness.workspace],
      env: [],
      limits: {},
    });
    // What `deputy status` prints, read through the facade the CLI uses.
    const detail = await harness.delegations.get((await boxed.query(stateQuery)).delegationId);
    expect(stateLines(detail)).toContain('  sandbox:  on, no network');
    expect(stateLines(detail)).toContain(`    read-write: ${harness.workspace}`);
    const unboxed = await harness.start('unboxed', 'true', { session: 'state-off' });
    await unboxed.result();
    expect((await unboxed.query(stateQuery)).sandbox).toBeNull();
  });

  it('sandbox: off runs bash as before, outside writes included', async () => {
    const text = await run('unboxed', `echo plain > ../${sibling('unboxed')} && echo done`);
    expect(text).toContain('done');
    expect(readFileSync(join(dirname(harness.workspace), sibling('unboxed')), 'utf8')).toBe(
      'plain\n',
    );
  });

  it('refuses the call, never runs it unsandboxed, where no bubblewrap can be found', async () => {
    // The worker looks bubblewrap up on its PATH at each call: a PATH without it is a machine
    // without it. The worker runs in this process, so the test's PATH is the worker's.
    const emptyPath = await mkdtemp(join(tmpdir(), 'deputy-no-bwrap-'));
    const saved = process.env.PATH;
    process.env.PATH = emptyPath;
    try {
      const text = await run('boxed', 'echo ran > ran-unsandboxed.txt');
      expect(text).toContain("command was not run: the agent's sandbox is on, but");
      expect(text).toContain('bubblewrap');
      expect(existsSync(join(harness.workspace, 'ran-unsandboxed.txt'))).toBe(false);
    } finally {
      process.env.PATH = saved;
      await rm(emptyPath, { recursive: true, force: true });
    }
  });

  it('an unknown key of sandbox is diagnosed', () => {
    const diagnostics = harness.registry.get('typo')?.diagnostics ?? [];
    expect(diagnostics).toContainEqual(
      expect.objectContaining({ path: 'sandbox.network', code: 'field.unknown' }),
    );
  });
});
