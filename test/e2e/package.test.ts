/**
 * `deputy/client` as another project gets it (issue 15): `npm pack` (which builds), installed
 * alone into a fresh project, imported from plain Node and type-checked by TypeScript, then run
 * against a real API on loopback: a background delegation whose card the program approves.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createHarness, type Harness } from '../integration/support/harness.js';
import { writerAgent } from '../integration/support/session-agents.js';

const run = promisify(execFile);
let harness: Harness;
let server: ApiServer;
let consumer: string;

beforeAll(async () => {
  harness = await createHarness(writerAgent);
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations: harness.delegations, sessions: harness.sessions, definitions: harness.registry },
  );
  const packed = await mkdtemp(join(tmpdir(), 'deputy-pack-'));
  const { stdout } = await run('npm', ['pack', '--pack-destination', packed, '--json'], {
    cwd: PROJECT_ROOT,
    maxBuffer: 32 * 1024 * 1024,
  });
  const [tarball] = JSON.parse(stdout) as Array<{ filename: string }>;
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
