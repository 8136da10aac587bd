/**
 * A caller's permission mode at the front doors: POST /delegations passes a known
 * mode to the facade and refuses an unknown one with the field named; `deputy delegate
 * --caller-mode` refuses an unknown mode as a usage error, listing the modes, before anything
 * reaches Temporal. What the mode does is tested on a real server (test/integration/caller-ceiling.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import type { Io } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/program.js';
import { loadConfig } from '../../src/config/load.js';
import { startedD1, stubDelegations } from './stub-delegations.js';

const config = loadConfig({ workspace: mkdtempSync(join(tmpdir(), 'deputy-api-')) }, {});

function appWithStart() {
  const stub = stubDelegations({ start: startedD1 });
  const logger = { error: () => {}, warn: () => {}, info: () => {} };
  const app = createApp({
    delegations: stub.delegations,
    config,
    auth: createAuth({ auth: undefined }, {}),
    logger,
  });
  return { app, calls: stub.calls };
}

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('POST /delegations callerMode', () => {
  it('passes a known mode to the start request', async () => {
    const { app, calls } = appWithStart();
    const response = await app.request(
      '/delegations',
      post({ agent: 'demo', task: 'Edit it', callerMode: 'plan' }),
    );
    expect(response.status).toBe(201);
    const request = calls[0]?.args[0] as { options: Record<string, unknown> };
    expect(request.options).toEqual({ callerMode: 'plan' });
  });

  it('refuses an unknown mode, naming the field, and starts nothing', async () => {
    const { app, calls } = appWithStart();
    const response = await app.request(
      '/delegations',
      post({ agent: 'demo', task: 'Edit it', callerMode: 'yolo' }),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error: 'invalid_request',
      issues: [{ path: 'callerMode' }],
    });
    expect(calls).toEqual([]);
  });
});

describe('deputy delegate --caller-mode', () => {
  it('refuses an unknown mode as a usage error that lists the modes', async () => {
    let stderr = '';
    const io: Io = { out: () => {}, err: (text) => void (stderr += `${text}\n`) };
    const workspace = mkdtempSync(join(tmpdir(), 'deputy-cli-'));
    const code = await runCli(
      ['--workspace', workspace, 'delegate', 'demo', 'Edit it', '--caller-mode', 'yolo'],
      io,
    );
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain(
      "unknown permission mode 'yolo': callerMode is one of default, acceptEdits, dontAsk, bypassPermissions, plan (as Claude Code names them)",
    );
  });
});
