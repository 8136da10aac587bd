/**
 * What a program loads when it imports deputy's client, resolved as an installed package resolves
 * it: a project outside the repository whose `node_modules/deputy` links to the checkout, so
 * `deputy/client` and `deputy/client/local` go through the package's `exports` to the compiled
 * `dist/` (test/compiled-build.ts). The program runs in a child `node` that records every module it
 * loads: ES modules through a load hook, CommonJS ones (a package's own `require`s pass no ES hook)
 * from the require cache when it exits.
 *
 * `deputy/client` talks HTTP with fetch, so a program that imports it loads the client's own
 * modules and nothing else: no package at all (so no Temporal SDK, worker or client, and no hono)
 * and no other module of deputy (so no definition registry, API app or configuration loader).
 * The local client has its own entry, `deputy/client/local`, which loads the server's side and
 * runs a delegation over Temporal from a program.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createHarness, type Harness } from '../integration/support/harness.js';
import { writerAgent } from '../integration/support/session-agents.js';

const run = promisify(execFile);

/** Runs in the hooks thread: every ES module (and the CommonJS files imported from one). */
const RECORD_LOADS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, nextLoad) {
  appendFileSync(log, url + '\\n');
  return nextLoad(url, context);
}
`;

/** Runs first in the program's thread (\`--import\`): the hook, and the require cache at exit. */
const RECORDER = `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
const log = process.env.LOADED_MODULES_LOG;
register('./record-loads.mjs', import.meta.url, { data: { log } });
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  appendFileSync(log, Object.keys(cache).map((file) => pathToFileURL(file).href + '\\n').join(''));
});
`;

const HTTP_PROGRAM = `import * as entry from 'deputy/client';
const deputy = entry.createDeputyClient({ url: process.argv[2] });
const agents = await deputy.agents.list();
console.log(JSON.stringify({ exports: Object.keys(entry).sort(), agents: agents.map((agent) => agent.name) }));
`;

/** As docs/client.md has it: the workspace's configuration, read as the CLI reads it. */
const LOCAL_PROGRAM = `import { createLocalDeputyClient } from 'deputy/client/local';
const deputy = await createLocalDeputyClient();
try {
  const started = await deputy.delegations.start({ agent: 'writer', task: 'Write.', background: true });
  for await (const event of started.events()) {
    if (event.type === 'card-opened') await deputy.cards.decide(event.card.id, 'approve', 'beside the workers');
    if (event.type === 'finished') console.log(JSON.stringify(event.result));
  }
} finally {
  await deputy.close();
}
`;

let harness: Harness;
let server: ApiServer;
let consumer: string;

beforeAll(async () => {
  harness = await createHarness(writerAgent);
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations: harness.delegations, sessions: harness.sessions, definitions: harness.registry },
  );
  consumer = await mkdtemp(join(tmpdir(), 'deputy-client-graph-'));
  await writeFile(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // The checkout as the installed package: its "exports" decide what each subpath loads.
  await mkdir(join(consumer, 'node_modules'));
  await symlink(PROJECT_ROOT, join(consumer, 'node_modules', 'deputy'), 'dir');
  await writeFile(join(consumer, 'record-loads.mjs'), RECORD_LOADS);
  await writeFile(join(consumer, 'recorder.mjs'), RECORDER);
  await writeFile(join(consumer, 'http.mjs'), HTTP_PROGRAM);
  await writeFile(join(consumer, 'local.mjs'), LOCAL_PROGRAM);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await harness?.close();
  if (consumer !== undefined) await rm(consumer, { recursive: true, force: true });
});

/** What one run of a program printed and loaded: deputy's modules (paths under dist/), packages. */
interface Loaded {
  stdout: string;
  deputy: string[];
  packages: string[];
}

async function runRecorded(
  program: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Loaded> {
  const log = join(consumer, `${program}.loaded`);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, LOADED_MODULES_LOG: log };
  // Nothing preloaded but the recorder: the program runs compiled code, as a user's does.
  delete childEnv.NODE_OPTIONS;
  await writeFile(log, '');
  const { stdout } = await run(process.execPath, ['--import', './recorder.mjs', program, ...args], {
    cwd: consumer,
    env: childEnv,
    timeout: 90_000,
  });
  const urls = [...new Set((await readFile(log, 'utf8')).split('\n'))];
  const dist = `${pathToFileURL(join(PROJECT_ROOT, 'dist')).href}/`;
  return {
    stdout,
    deputy: urls.filter((url) => url.startsWith(dist)).map((url) => url.slice(dist.length)),
    packages: [...new Set(urls.flatMap(packageName))],
  };
}

/** The package a module URL belongs to (the innermost node_modules folder), if any. */
function packageName(url: string): string[] {
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(
    url.slice(url.lastIndexOf('/node_modules/')),
  );
  return match === null ? [] : [match[1]!];
}

describe('a program that imports deputy/client', () => {
  it('loads the client’s own modules and no package: no Temporal SDK, no hono, no registry', async () => {
    const loaded = await runRecorded('http.mjs', [server.url]);
    expect(loaded.packages).toEqual([]);
    expect(loaded.deputy).toContain('client/index.js');
    expect(loaded.deputy.filter((path) => !/^client\/[^/]+\.js$/.test(path))).toEqual([]);
    // It worked with what it loaded, and offers the HTTP client only.
    expect(JSON.parse(loaded.stdout.trim())).toEqual({
      exports: ['DeputyClientError', 'createDeputyClient'],
      agents: expect.arrayContaining(['writer']) as unknown,
    });
  }, 90_000);
});

describe('a program that imports deputy/client/local', () => {
  it('runs a delegation over Temporal and approves its card, loading the server’s side', async () => {
    const loaded = await runRecorded('local.mjs', [], {
      DEPUTY_WORKSPACE: harness.workspace,
      DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
      TEMPORAL_ADDRESS: harness.address,
      DEPUTY_TASK_QUEUE: harness.taskQueue,
    });
    expect(JSON.parse(loaded.stdout.trim())).toMatchObject({
      status: 'completed',
      text: 'Wrote out.txt.',
    });
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('written by writer\n');
    // What deputy/client must not load, seen by the same recorder here.
    expect(loaded.packages).toEqual(expect.arrayContaining(['@temporalio/client', 'hono']));
    expect(loaded.deputy).toEqual(
      expect.arrayContaining([
        'client/local/index.js',
        'api/app.js',
        'definitions/registry/registry.js',
        'config/load.js',
      ]),
    );
  }, 120_000);
});
