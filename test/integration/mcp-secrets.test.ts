/**
 * Secrets configured for MCP servers (no configured secret
 * reaches the model, history, an answer or a log line): random secrets are planted in stdio
 * servers' env (a `${NAME}` reference, under any name, and a literal, under a secret-looking
 * name: that is how deputy knows a literal is one, and warns) and an http server's headers (the
 * same two forms). The fixture's check tools prove each server received them (they answer a boolean,
 * never the value); server-everything's `get-env` answers its whole environment, the planted
 * values included, which is the leak a real server would cause. Then the delegation's full
 * history, its state, events and card listing, the worker's captured output and the MCP
 * runtime's log lines are scanned for every value, plain and base64. The same agent also gets
 * one tool directly (`tools: [mcp:vault:echo]`), resolved with the server's own input schema.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delegations } from '../../src/temporal/delegations/facade.js';
import {
  everythingStdioCommand,
  startHttpFixture,
  stdioFixtureCommand,
  type RunningServer,
} from '../fixtures/mcp/start.js';
import { createHarness, type Harness } from './support/harness.js';
import { captureOutput, historyText, leakedIn, resolvedSnapshot } from './support/leak-scan.js';
import {
  allEvents,
  delegate,
  delegationsOn,
  finished,
  turnTexts,
} from './support/mcp-delegations.js';

/** Random, and shaped like no known token format: only the configured-value masker can catch them. */
const secret = (label: string) => `${label}-${randomBytes(9).toString('hex')}`;
const SECRETS = {
  envLiteral: secret('mcp-env-literal'),
  envReferenced: secret('mcp-env-referenced'),
  headerLiteral: secret('mcp-header-literal'),
  headerReferenced: secret('mcp-header-referenced'),
  everythingLiteral: secret('everything-env-literal'),
  everythingReferenced: secret('everything-env-referenced'),
};
const ALL = Object.values(SECRETS);
const suffix = randomUUID().slice(0, 8).toUpperCase();
const VARIABLES = {
  envReferenced: `DEPUTY_MCP_SECRETS_ENV_${suffix}`,
  headerReferenced: `DEPUTY_MCP_SECRETS_HEADER_${suffix}`,
  everythingReferenced: `DEPUTY_MCP_SECRETS_EVERYTHING_${suffix}`,
};
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const fixture = stdioFixtureCommand();
const everything = everythingStdioCommand();

const check = (server: string, tool: string, name: string, value: string) =>
  `[{ name: mcp_call, arguments: { server: ${server}, tool: ${tool}, arguments: { name: ${name}, sha256: "${sha256(value)}" } } }]`;

const SCRIPT = `turns:
  - text: Checking the literal env.
    toolCalls: ${check('vault', 'env-check', 'VAULT_TOKEN', SECRETS.envLiteral)}
  - text: "literal env: \${lastToolResult}"
    toolCalls: ${check('vault', 'env-check', 'VAULT_SETTING', SECRETS.envReferenced)}
  - text: "referenced env: \${lastToolResult}"
    toolCalls: ${check('remote', 'header-check', 'x-api-key', SECRETS.headerLiteral)}
  - text: "literal header: \${lastToolResult}"
    toolCalls: ${check('remote', 'header-check', 'authorization', `Bearer ${SECRETS.headerReferenced}`)}
  - text: "referenced header: \${lastToolResult}"
    toolCalls: [{ name: mcp_call, arguments: { server: everything, tool: get-env } }]
  - text: "environment: \${lastToolResult}"
    toolCalls: [{ name: mcp__vault__echo, arguments: { text: called directly } }]
  - text: "direct: \${lastToolResult}"
`;

let http: RunningServer;
let harness: Harness;
let delegations: Delegations;
const output = captureOutput();
const mcpLog: string[] = [];

beforeAll(async () => {
  for (const [key, name] of Object.entries(VARIABLES)) {
    process.env[name] = SECRETS[key as keyof typeof VARIABLES];
  }
  http = await startHttpFixture();
  harness = await createHarness(
    {
      '.subagents/config.yaml': `
mcpServers:
  vault:
    transport: stdio
    command: ${JSON.stringify(fixture.command)}
    args: ${JSON.stringify(fixture.args)}
    env:
      VAULT_TOKEN: ${SECRETS.envLiteral}
      VAULT_SETTING: \${${VARIABLES.envReferenced}}
    approve: [env-check, echo]
  remote:
    transport: http
    endpoint: ${http.url}
    headers:
      X-Api-Key: ${SECRETS.headerLiteral}
      Authorization: Bearer \${${VARIABLES.headerReferenced}}
    approve: [header-check]
  everything:
    transport: stdio
    command: ${JSON.stringify(everything.command)}
    args: ${JSON.stringify(everything.args)}
    env:
      EVERYTHING_TOKEN: ${SECRETS.everythingLiteral}
      EVERYTHING_SETTING: \${${VARIABLES.everythingReferenced}}
    approve: [get-env]
`,
      '.subagents/agents/checker.md': `---
name: checker
description: Proves the servers got their secrets, and calls one tool directly
model: scripted:scripts/checker.yaml
tools: [mcp:vault:echo]
mcpServers: [vault, remote, everything]
---
You check secrets.
`,
      'scripts/checker.yaml': SCRIPT,
    },
    { mcp: { log: (line) => mcpLog.push(line) } },
  );
  delegations = delegationsOn(harness.client, harness.taskQueue);
});

afterAll(async () => {
  output.restore();
  await harness?.close();
  await http?.stop();
  for (const name of Object.values(VARIABLES)) delete process.env[name];
});

describe('secrets configured for MCP servers', () => {
  it('reach the servers and nothing else: not history, state, events, logs', async () => {
    const { delegationId, workflowId } = await delegate(delegations, 'checker', 'Check them');
    const state = await finished(delegations, delegationId);
    expect(state.result).toMatchObject({
      status: 'completed',
      text: 'direct: called directly',
      deniedCalls: [],
    });
    const texts = await turnTexts(delegations, delegationId);
    // Each server received each secret, as written: a literal, or a resolved reference.
    const received = (name: string) => JSON.stringify({ name, received: true, matches: true });
    expect(texts.slice(1, 5)).toEqual([
      `literal env: ${received('VAULT_TOKEN')}`,
      `referenced env: ${received('VAULT_SETTING')}`,
      `literal header: ${received('x-api-key')}`,
      `referenced header: ${received('authorization')}`,
    ]);
    // server-everything answered its whole environment: the model read it, secrets masked.
    const environment = texts[5]!;
    expect(environment).toMatch(/^environment: /);
    expect(environment).toContain('EVERYTHING_TOKEN');
    expect(environment).toContain('EVERYTHING_SETTING');
    expect(environment).toContain('__redacted__');

    // The direct tool: in the snapshot under its wire name, with the server's own schema.
    const snapshot = await resolvedSnapshot(harness.client, workflowId);
    const direct = (
      snapshot.tools as Array<{ name: string; inputSchema: Record<string, unknown> }>
    ).find((tool) => tool.name === 'mcp__vault__echo');
    expect(direct).toMatchObject({
      provider: 'Mcp',
      toolClass: 'mcp',
      mcp: { server: 'vault', tool: 'echo' },
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['mcp_search', 'mcp_describe', 'mcp_call', 'mcp__vault__echo']),
    );

    const channels = {
      history: await historyText(harness.client, workflowId),
      state: JSON.stringify(await delegations.get(delegationId)),
      events: JSON.stringify(await allEvents(delegations, delegationId)),
      list: JSON.stringify(await delegations.list({ session: 'mcp' })),
      output: output.text(),
      mcpLog: mcpLog.join('\n'),
      warnings: harness.config.warnings.join('\n'),
    };
    expect(
      Object.fromEntries(
        Object.entries(channels).map(([channel, text]) => [channel, leakedIn(text, ALL)]),
      ),
    ).toEqual({
      history: [],
      state: [],
      events: [],
      list: [],
      output: [],
      mcpLog: [],
      warnings: [],
    });
    // The channels carried the run, so an empty scan is not an empty channel.
    expect(channels.history).toContain('EVERYTHING_SETTING');
    expect(channels.events).toContain('referenced header');
    expect(channels.mcpLog).toContain("MCP server 'remote' connected");
    expect(channels.warnings).toContain('mcpServers.vault.env.VAULT_TOKEN holds a literal secret');
  });
});
