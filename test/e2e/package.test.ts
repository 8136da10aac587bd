/**
 * deputy as another project gets it: `npm pack` (which builds), installed alone into a fresh
 * project outside the repository. Its contents are what a package should hold; `deputy/client`
 * imports from plain Node and type-checks with TypeScript (`deputy/client/local` too), and runs
 * against a real API on loopback; and `npx deputy dev` runs there, on the project's own
 * `.subagents/`, the demo's card approved with the installed CLI and a project agent's card with
 * the installed client.
 *
 * It packs a copy of the repository: the pack's build rewrites `dist/`, which the other suites'
 * child processes load from the checkout while this runs (test/compiled-build.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createHarness, type Harness } from '../integration/support/harness.js';
import { writerAgent } from '../integration/support/session-agents.js';
import { printedApiUrl, spawnCaptured } from './run-deputy.js';
import { eventually } from '../support/eventually.js';

const run = promisify(execFile);
let harness: Harness;
let server: ApiServer;
let consumer: string;
let packedFiles: Array<{ path: string; size: number }>;
let packedSize: number;

beforeAll(async () => {
  harness = await createHarness(writerAgent);
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations: harness.delegations, sessions: harness.sessions, definitions: harness.registry },
  );
  const packed = await mkdtemp(join(tmpdir(), 'deputy-pack-'));
  const { stdout } = await run('npm', ['pack', '--pack-destination', packed, '--json'], {
    cwd: await copyOfRepository(),
    maxBuffer: 32 * 1024 * 1024,
  });
  const [tarball] = JSON.parse(stdout) as Array<{
    filename: string;
    size: number;
    files: Array<{ path: string; size: number }>;
  }>;
  packedFiles = tarball!.files;
  packedSize = tarball!.size;
  consumer = await mkdtemp(join(tmpdir(), 'deputy-consumer-'));
  await writeFile(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // Only the tarball: its dependencies come with it (from the npm cache when warm).
  await run(
    'npm',
    [
      'install',
      join(packed, tarball!.filename),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    { cwd: consumer, maxBuffer: 32 * 1024 * 1024 },
  );
}, 300_000);

/** The repository's sources without what builds and runs write, its dependencies linked. */
async function copyOfRepository(): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'deputy-pack-source-'));
  const written = new Set(['node_modules', '.git', 'dist', '.deputy', 'web/dist', 'coverage']);
  await cp(PROJECT_ROOT, copy, {
    recursive: true,
    filter: (source) => !written.has(relative(PROJECT_ROOT, source)),
  });
  await symlink(join(PROJECT_ROOT, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

const PROGRAM = `import { createDeputyClient } from 'deputy/client';
const deputy = createDeputyClient({ url: process.argv[2] });
const started = await deputy.delegations.start({ agent: 'writer', task: 'Write.', background: true });
for await (const event of deputy.delegations.events(started.delegationId)) {
  if (event.type === 'card-opened') await deputy.cards.decide(event.card.id, 'approve', 'from a program');
  if (event.type === 'finished') console.log(JSON.stringify(event.result));
}
`;

const TYPED = `import { createDeputyClient, DeputyClientError, type DeputyClient, type StreamEvent } from 'deputy/client';
import { createLocalDeputyClient, type LocalDeputyClient } from 'deputy/client/local';
const deputy: DeputyClient = createDeputyClient({ url: 'http://127.0.0.1:4780', token: 't' });
export async function firstCard(id: string): Promise<string | null> {
  for await (const event of deputy.delegations.events(id)) {
    const seen: StreamEvent = event;
    if (seen.type === 'card-opened') return seen.card.tool;
  }
  return null;
}
export function codeOf(error: unknown): string | null {
  return error instanceof DeputyClientError ? error.code : null;
}
// @ts-expect-error: a delegation needs a task
void deputy.delegations.start({ agent: 'writer' });
export async function beside(): Promise<DeputyClient> {
  const local: LocalDeputyClient = await createLocalDeputyClient();
  await local.close();
  return local;
}
`;

describe('the packed deputy/client', () => {
  it('imports in a fresh project and runs a delegation from a program', async () => {
    await writeFile(join(consumer, 'program.mjs'), PROGRAM);
    const { stdout } = await run(process.execPath, ['program.mjs', server.url], { cwd: consumer });
    expect(JSON.parse(stdout.trim())).toMatchObject({
      status: 'completed',
      text: 'Wrote out.txt.',
    });
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('written by writer\n');
  }, 60_000);

  it('type-checks against its declarations', async () => {
    await writeFile(join(consumer, 'typed.ts'), TYPED);
    const tsc = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--module',
      'nodenext',
      '--target',
      'es2022',
    ];
    const checked = await run(process.execPath, [tsc, ...args, 'typed.ts'], { cwd: consumer }).then(
      () => 'ok',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(checked).toBe('ok');
  }, 60_000);
});

describe('the packed package', () => {
  it('holds compiled code, the workflow bundle, the console and the built-ins; no source, tests or fixtures', () => {
    const paths = packedFiles.map((file) => file.path);
    console.log(
      `npm pack: ${paths.length} files, ${(packedSize / 1024 / 1024).toFixed(1)} MiB packed, ` +
        `${(packedFiles.reduce((sum, file) => sum + file.size, 0) / 1024 / 1024).toFixed(1)} MiB unpacked`,
    );
    for (const needed of [
      'bin/deputy.mjs',
      'dist/cli/main.js',
      'dist/client/index.js',
      'dist/client/index.d.ts',
      'dist/client/local/index.js',
      'dist/client/local/index.d.ts',
      'dist/workflows/bundle.js',
      'dist/tools/grep-match-worker.js',
      'dist/tools/grammars/tree-sitter-bash.wasm',
      'dist/api/openapi/swagger-ui/swagger-ui-bundle.js.gz',
      'web/dist/index.html',
      'agents/demo.md',
      'README.md',
    ]) {
      expect(paths, needed).toContain(needed);
    }
    const unwanted = paths.filter(
      (path) =>
        /^(src|test|bench|chaos|examples|scripts|web\/src)\//.test(path) ||
        path.includes('fixtures/') ||
        path.startsWith('docs/screenshots/') ||
        /\.test\.(js|ts|d\.ts)/.test(path),
    );
    expect(unwanted).toEqual([]);
  });

  it('installs without tsx: the installed command runs compiled code', () => {
    expect(existsSync(join(consumer, 'node_modules', 'deputy', 'dist', 'cli', 'main.js'))).toBe(
      true,
    );
    expect(existsSync(join(consumer, 'node_modules', 'tsx'))).toBe(false);
  });
});

describe('npx deputy dev in a project that installed the package', () => {
  const LOCAL_AGENT = `---
name: local
description: a project-local agent on the scripted model
model: scripted:scripts/local.yaml
tools: [write]
---
You write one file.
`;
  const LOCAL_SCRIPT = `turns:
  - text: Writing.
    toolCalls: [{ name: write, arguments: { path: local.txt, content: "from the project's own agent\\n" } }]
  - text: Wrote local.txt.
`;
  const CLIENT_PROGRAM = `import { createDeputyClient } from 'deputy/client';
const deputy = createDeputyClient({ url: process.argv[2] });
const started = await deputy.delegations.start({ agent: 'local', task: 'Write.', background: true });
for await (const event of deputy.delegations.events(started.delegationId)) {
  if (event.type === 'card-opened') await deputy.cards.decide(event.card.id, 'approve', 'from the client');
  if (event.type === 'finished') console.log(JSON.stringify(event.result));
}
`;

  it('runs the demo and a project agent: one card approved with the CLI, one with the client', async () => {
    await writeFile(join(consumer, 'README.md'), '# a project of its own\n');
    await mkdir(join(consumer, '.subagents', 'agents'), { recursive: true });
    await mkdir(join(consumer, 'scripts'), { recursive: true });
    await writeFile(join(consumer, '.subagents', 'agents', 'local.md'), LOCAL_AGENT);
    await writeFile(join(consumer, 'scripts', 'local.yaml'), LOCAL_SCRIPT);
    await writeFile(join(consumer, 'client.mjs'), CLIENT_PROGRAM);
    // Its own Temporal dev server, as a user's `npx deputy dev` starts one.
    const env: NodeJS.ProcessEnv = { ...process.env, DEPUTY_USER_DIR: join(consumer, '.user') };
    delete env.TEMPORAL_ADDRESS;
    delete env.DEPUTY_PORT;
    const npx = (args: string[]) =>
      run('npx', ['--no-install', 'deputy', ...args], { cwd: consumer, env });
    const dev = spawnCaptured('npx', ['--no-install', 'deputy', 'dev', '--port', '0'], {
      cwd: consumer,
      env,
      detached: true,
    });
    try {
      const apiUrl = await printedApiUrl(dev, 150_000);
      expect(dev.output()).toContain(`workspace:    ${consumer}`);
      // The console comes from the package.
      expect((await fetch(`${apiUrl}/`)).status).toBe(200);

      const started = await npx(['delegate', 'demo', 'Say hello', '--background']);
      const delegationId = /d-[a-z0-9]+/.exec(started.stdout)?.[0];
      expect(delegationId).toBeDefined();
      const card = await eventually(
        async () => {
          const { stdout } = await npx(['cards', '--json']);
          const cards = JSON.parse(stdout) as Array<{ id: string; delegationId: string }>;
          return cards.find((each) => each.delegationId === delegationId);
        },
        'the demo card',
        60_000,
        500,
      );
      await npx(['approve', card.id]);
      await eventually(
        async () =>
          (await readFile(join(consumer, 'hello.txt'), 'utf8').catch(() => undefined)) ?? undefined,
        'hello.txt',
        60_000,
        250,
      );

      const client = await run(process.execPath, ['client.mjs', apiUrl], { cwd: consumer });
      expect(JSON.parse(client.stdout.trim())).toMatchObject({
        status: 'completed',
        text: 'Wrote local.txt.',
      });
      expect(await readFile(join(consumer, 'local.txt'), 'utf8')).toBe(
        "from the project's own agent\n",
      );
    } finally {
      // Ctrl-C to the whole group (npx, deputy and its Temporal server).
      process.kill(-dev.child.pid!, 'SIGINT');
      await dev.exited;
    }
  }, 400_000);
});
