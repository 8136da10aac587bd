/**
 * A non-admin can neither author agents nor obtain write tools by any route, on the real API over
 * loopback and the real dev server:
 *
 * - every authoring route answers 403 to a caller without the `admin` role (an `ops` user and a
 *   reader), and nothing on disk changes;
 * - their `GET /workspace/tools` lists no `write`, `edit` or `bash`, while an admin's does;
 * - delegating to an agent that declares `tools: [read, write, bash]` (in `full-access`, so no
 *   card stands in the way) resolves without write and bash for them: the snapshot in the
 *   workflow history has neither, the scripted model's `write` and `bash` calls come back as
 *   "you don't have that", and nothing is written; the same agent run by an admin writes;
 * - duplicating a write-capable agent or restoring its revision, which could otherwise produce
 *   one, is refused (403) too.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delegationWorkflowId } from '../../src/shared/delegation.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { snapshotTrees } from '../support/disk-snapshot.js';
import { createHarness, type Harness } from './support/harness.js';
import { resolvedSnapshot } from './support/leak-scan.js';

const suffix = randomUUID().slice(0, 8).toUpperCase();
const TOKENS = {
  admin: `tok-ar-admin-${suffix}`,
  ops: `tok-ar-ops-${suffix}`,
  reader: `tok-ar-reader-${suffix}`,
} as const;
type Who = keyof typeof TOKENS;
const VARIABLES: Record<Who, string> = {
  admin: `AR_ADMIN_${suffix}`,
  ops: `AR_OPS_${suffix}`,
  reader: `AR_READER_${suffix}`,
};
const NON_ADMINS: Who[] = ['ops', 'reader'];
const WRITE_TOOLS = ['write', 'edit', 'bash'];

const FILES = {
  'README.md': '# rights workspace\n',
  '.subagents/config.yaml': `models:
  default: scripted:scripts/gen.yaml
auth:
  tokens:
    ${VARIABLES.admin}: { user: alice, roles: [admin] }
    ${VARIABLES.ops}: { user: bob, roles: [ops] }
    ${VARIABLES.reader}: { user: carol, roles: [] }
`,
  'scripts/gen.yaml': 'turns:\n  - text: "Generated."\n',
  // full-access: nothing would ask, so only the caller's roles stand between the model and a write.
  '.subagents/agents/wielder.md': `---
name: wielder
description: Declares read, write and bash
model: scripted:scripts/wielder.yaml
tools: [read, write, bash]
approvalMode: full-access
---
You write and run things.
`,
  'scripts/wielder.yaml': `turns:
  - text: "Writing."
    toolCalls: [{ name: write, arguments: { path: "\${task}-written.txt", content: "wrote\\n" } }]
  - text: "Running."
    toolCalls: [{ name: bash, arguments: { command: "echo ran > \${task}-bashed.txt" } }]
  - text: "Reading."
    toolCalls: [{ name: read, arguments: { path: README.md } }]
  - text: "Done."
`,
};

let harness: Harness;
let api: ApiServer;

beforeAll(async () => {
  for (const who of Object.keys(TOKENS) as Who[]) process.env[VARIABLES[who]] = TOKENS[who];
  harness = await createHarness(FILES);
  api = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    {
      delegations: createDelegations(harness.client, {
        namespace: harness.config.temporal.namespace,
        taskQueue: harness.taskQueue,
      }),
      definitions: harness.registry,
      logger: { error: () => {}, warn: () => {}, info: () => {} },
    },
  );
});

afterAll(async () => {
  await api?.close();
  await harness?.close();
  for (const name of Object.values(VARIABLES)) delete process.env[name];
});

async function call(who: Who, method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKENS[who]}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
  };
}

const trees = () => [
  join(harness.workspace, '.subagents'),
  harness.config.userDir,
  join(harness.config.dataDir, 'revisions'),
];

describe('a non-admin cannot author agents', () => {
  it('gets 403 on every authoring route, and nothing on disk changes', async () => {
    // A revision of wielder to try restoring, made by the admin.
    const edited = await call('admin', 'PATCH', '/workspace/agents/wielder', { maxTurns: 9 });
    expect(edited.status).toBe(200);
    const revisions = await call('admin', 'GET', '/workspace/agents/wielder/revisions');
    const revision = (revisions.body.revisions as Array<{ id: string }>)[0]!.id;
    const before = snapshotTrees(trees());

    const attempts: Array<[string, string, unknown]> = [
      [
        'POST',
        '/workspace/agents',
        { name: 'mine', description: 'x', systemPrompt: 'x', tools: ['bash'] },
      ],
      ['GET', '/workspace/agents/wielder', undefined],
      ['GET', '/workspace/agents/wielder/revisions', undefined],
      ['POST', '/workspace/agents/wielder', { tools: ['read', 'write', 'bash', 'edit'] }],
      ['PATCH', '/workspace/agents/wielder?scope=workspace', { approvalMode: 'full-access' }],
      ['DELETE', '/workspace/agents/wielder', undefined],
      ['POST', '/workspace/agents/wielder/duplicate', { name: 'my-wielder' }],
      ['POST', '/workspace/agents/demo/duplicate', { name: 'my-demo', scope: 'workspace' }],
      ['POST', `/workspace/agents/wielder/revisions/${revision}/restore`, undefined],
      ['POST', '/workspace/generate', { prompt: 'an agent with bash', kind: 'systemPrompt' }],
      ['POST', '/workspace/agents/generate', { prompt: 'an agent with bash' }],
      // The editor's pickers and live check show what only an author needs to see.
      ['POST', '/workspace/agents/check', { source: '---\nname: x\ndescription: x\n---\nx' }],
      ['GET', '/workspace/skills', undefined],
      ['GET', '/workspace/directories?path=', undefined],
    ];
    for (const who of NON_ADMINS) {
      for (const [method, path, body] of attempts) {
        const answer = await call(who, method, path, body);
        expect(answer.status, `${who}: ${method} ${path}`).toBe(403);
        expect(answer.body).toMatchObject({
          error: 'forbidden',
          code: 'forbidden',
          message: expect.stringContaining("needs the 'admin' role"),
        });
      }
      // Listing is open to any authenticated caller.
      expect((await call(who, 'GET', '/workspace/agents')).status).toBe(200);
    }
    expect(snapshotTrees(trees())).toBe(before);
    expect(existsSync(join(harness.workspace, '.subagents', 'agents', 'my-demo.md'))).toBe(false);
    expect(readFileSync(join(harness.workspace, '.subagents/agents/wielder.md'), 'utf8')).toContain(
      'maxTurns: 9',
    );
  });
});

describe('a non-admin cannot obtain write tools by any route', () => {
  it("is offered no write or exec tool in GET /workspace/tools; an admin's catalog has them", async () => {
    const names = async (who: Who) => {
      const answer = await call(who, 'GET', '/workspace/tools');
      expect(answer.status).toBe(200);
      const flat = (answer.body.tools as Array<{ name: string }>).map((tool) => tool.name);
      const nested = (answer.body.providers as Array<{ tools: Array<{ name: string }> }>).flatMap(
        (provider) => provider.tools.map((tool) => tool.name),
      );
      expect(new Set(nested)).toEqual(new Set(flat));
      return flat;
    };
    const admin = await names('admin');
    expect(admin).toEqual(expect.arrayContaining([...WRITE_TOOLS, 'read']));
    for (const who of NON_ADMINS) {
      const theirs = await names(who);
      expect(theirs).toContain('read');
      for (const tool of WRITE_TOOLS)
        expect(theirs, `${who} is offered ${tool}`).not.toContain(tool);
    }
  });

  it('delegating to an agent that declares read, write and bash resolves without write and bash', async () => {
    const run = async (who: Who) => {
      const session = `rights-${who}-${randomUUID().slice(0, 8)}`;
      const started = await call(who, 'POST', '/delegations?wait=true', {
        agent: 'wielder',
        task: who,
        session,
      });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      expect(started.body.status).toBe('completed');
      const id = started.body.delegationId as string;
      const state = (await call(who, 'GET', `/delegations/${id}`)).body as {
        transcriptSummary: string[];
        deniedCalls: Array<{ tool: string; by: string; reason: string }>;
      };
      const snapshot = await resolvedSnapshot(harness.client, delegationWorkflowId(session, id));
      return { state, snapshot, tools: snapshot.tools.map((tool) => tool.name) };
    };

    for (const who of NON_ADMINS) {
      const { state, snapshot, tools } = await run(who);
      expect(tools).toEqual(['read']);
      expect(snapshot.callerRoles).toEqual(who === 'ops' ? ['ops'] : []);
      const transcript = state.transcriptSummary.join('\n');
      expect(transcript).toContain(
        "[tool 'write' denied] You don't have a tool named 'write'. Your tools: read.",
      );
      expect(transcript).toContain(
        "[tool 'bash' denied] You don't have a tool named 'bash'. Your tools: read.",
      );
      expect(state.deniedCalls.map((call) => [call.tool, call.by])).toEqual([
        ['write', 'policy'],
        ['bash', 'policy'],
      ]);
      expect(existsSync(join(harness.workspace, `${who}-written.txt`))).toBe(false);
      expect(existsSync(join(harness.workspace, `${who}-bashed.txt`))).toBe(false);
    }

    // The control: the same agent, for an admin, has both tools and uses them.
    const admin = await run('admin');
    expect(admin.tools).toEqual(expect.arrayContaining(['read', 'write', 'bash']));
    expect(admin.state.deniedCalls).toEqual([]);
    expect(readFileSync(join(harness.workspace, 'admin-written.txt'), 'utf8')).toBe('wrote\n');
    expect(readFileSync(join(harness.workspace, 'admin-bashed.txt'), 'utf8')).toBe('ran\n');
  });
});
