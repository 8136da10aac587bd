/**
 * The programs in examples/, run as a user runs them (`npx tsx examples/<name>.ts`,
 * DEPUTY_URL pointing at the API) against a real API on loopback with a real worker. Each uses
 * the built-in agents, which run on scripted models.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createHarness, type Harness } from '../integration/support/harness.js';

const run = promisify(execFile);
let harness: Harness;
let server: ApiServer;

beforeAll(async () => {
  harness = await createHarness({ 'README.md': '# examples workspace\n' });
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations: harness.delegations, sessions: harness.sessions, definitions: harness.registry },
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

async function example(name: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'examples', `${name}.ts`)],
    { cwd: PROJECT_ROOT, env: { ...process.env, DEPUTY_URL: server.url }, timeout: 60_000 },
  );
  return stdout;
}

describe('examples/', () => {
  it('approve-from-code: a background delegation approved from code', async () => {
    const output = await example('approve-from-code');
    expect(output).toMatch(/^started d-[a-z0-9]{12}$/m);
    expect(output).toContain('approving write "hello.txt"');
    expect(output).toMatch(/^completed: Read README\.md and wrote hello\.txt/m);
    expect(existsSync(join(harness.workspace, 'hello.txt'))).toBe(true);
  }, 90_000);

  it("session-rules: a child's card answered by a rule, the reply saying so", async () => {
    const output = await example('session-rules');
    expect(output).toMatch(/^session s-[a-z0-9]{12}$/m);
    expect(output).toContain(
      'deny demo: write (only writes under docs/ are approved here, not write hello.txt)',
    );
    expect(output).toMatch(
      /^reply: The demo agent answered: \[task d-[a-z0-9]+ \(demo\) completed/m,
    );
    expect(output).toContain('Not done: write was denied (human)');
  }, 90_000);

  it('agent-lifecycle: an agent created, run and deleted', async () => {
    const output = await example('agent-lifecycle');
    expect(output).toMatch(/^created example-[a-z0-9]+ \(project\)$/m);
    expect(output).toMatch(/^completed: \[scripted model\]/m);
    expect(output).toContain('deleted (agent_not_found)');
  }, 90_000);
});
