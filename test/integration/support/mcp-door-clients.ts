/**
 * MCP clients of deputy's MCP door, made with the SDK's own client and transports: stdio (a real
 * `deputy mcp serve` child process, talking to the harness's Temporal and task queue) and
 * Streamable HTTP (the API's `/mcp`). `elicit` makes the client declare elicitation and answer
 * each question with it.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ElicitRequestSchema,
  type ClientNotification,
  type ClientRequest,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../../../src/config/load.js';
import type { Harness } from './harness.js';

export type DoorTransport = 'stdio' | 'http';

export type Elicit = (
  request: ElicitRequest,
  extra: RequestHandlerExtra<ClientRequest, ClientNotification>,
) => Promise<ElicitResult>;

export interface DoorClientOptions {
  elicit?: Elicit;
  /** For HTTP: the API's URL. */
  apiUrl?: string;
  /** For HTTP: a bearer token. */
  token?: string;
  /** For stdio: more arguments after `mcp serve` (`--mode plan`). */
  serveArgs?: string[];
}

/** The environment a `deputy mcp serve` of this harness runs with: its server, queue, workspace. */
export function serveEnv(harness: Harness): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TEMPORAL_ADDRESS: harness.address,
    DEPUTY_WORKSPACE: harness.workspace,
    DEPUTY_TASK_QUEUE: harness.taskQueue,
    DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
    DEPUTY_DATA_DIR: harness.config.dataDir,
  };
}

export async function connectDoor(
  transport: DoorTransport,
  harness: Harness,
  options: DoorClientOptions = {},
): Promise<Client> {
  const client = new Client(
    { name: 'deputy-test-host', version: '1.0.0' },
    { capabilities: options.elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (options.elicit !== undefined) client.setRequestHandler(ElicitRequestSchema, options.elicit);
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        // The real command, as a host's configuration runs it.
        args: [join(PROJECT_ROOT, 'bin/deputy.mjs'), 'mcp', 'serve', ...(options.serveArgs ?? [])],
        env: serveEnv(harness),
        cwd: harness.workspace,
        stderr: 'pipe',
      }),
    );
    return client;
  }
  if (options.apiUrl === undefined) throw new Error('an HTTP client needs the API URL');
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', options.apiUrl), {
      requestInit:
        options.token === undefined
          ? {}
          : { headers: { Authorization: `Bearer ${options.token}` } },
    }),
  );
  return client;
}
