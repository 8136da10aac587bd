/**
 * `deputy mcp list|tools`: the MCP servers of the workspace as a client of this process sees
 * them, the same answers as `GET /workspace/mcp` and `GET /workspace/mcp/:server/tools`. No
 * Temporal and no running deputy needed: the command connects its own clients, waits for them
 * to connect or fail, prints, and closes them (a stdio server's process ends with the command).
 * A `.mcp.json` server no person approved is never started by them (src/mcp/start-gate.ts).
 *
 * `deputy mcp trust|untrust <server>`: a person approves a `.mcp.json` server as the file says
 * it now (or withdraws the approval); they start nothing themselves.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type {
  McpServerEntry,
  McpServerTools,
  McpTrustAnswer,
} from '../../mcp-client/mcp-view-schemas.js';
import type * as McpView from '../../mcp-client/mcp-view.js';
import type { DeputyConfig } from '../../config/schema.js';
import type { DefinitionRegistry } from '../../definitions/registry/registry.js';
import { DeputyError } from '../../errors.js';
import { fixedConfig } from '../../config/live-config.js';
import type { McpRuntime } from '../../mcp-client/mcp-runtime.js';
import type { SecretMasker } from '../../secrets/masker.js';
import { localOperatorId } from '../../local-operator.js';
import { configFor, printConfigWarnings } from '../context.js';
import { registerMcpServeCommand } from './mcp-serve-command.js';
import type { Run } from '../exit-codes.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { oneLine, table } from '../format.js';
import { printJson, type Io } from '../io.js';

/** How long to wait for the servers to connect or fail, seconds, unless `--wait` says. */
const DEFAULT_WAIT_SECONDS = 10;

function parseWait(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidArgumentError('expected a number of seconds (0 or more)');
  }
  return seconds;
}

interface McpSession {
  config: DeputyConfig;
  registry: DefinitionRegistry;
  runtime: McpRuntime;
  secrets: SecretMasker;
  view: typeof McpView;
}

/** Runs `body` with clients of its own, and closes them (and their processes) whatever happens. */
async function withMcp<T>(command: Command, io: Io, body: (mcp: McpSession) => Promise<T>) {
  const config = await configFor(command);
  // On stderr, so `--json` output stays one document.
  printConfigWarnings(config, io);
  // Loaded on demand: the other commands should not pay for the MCP SDK and the parser.
  const [{ createRegistry }, { createMcpRuntime }, view, masks, { definitionSecretSource }] =
    await Promise.all([
      import('../../definitions/registry/registry.js'),
      import('../../mcp-client/mcp-runtime.js'),
      import('../../mcp-client/mcp-view.js'),
      import('../../secrets/live-masker.js'),
      import('../../secrets/definition-secrets.js'),
    ]);
  const registry = createRegistry({ config });
  await registry.load();
  const settings = fixedConfig(config);
  const runtime = createMcpRuntime({ settings, definitions: registry });
  const secrets = masks.liveSecretMasker(settings, process.env, definitionSecretSource(registry));
  try {
    return await body({ config, registry, runtime, secrets, view });
  } finally {
    await runtime.close();
    await registry.close();
  }
}

/** Until each server is connected or has failed once, at most `seconds`. */
async function settle(
  servers: ReadonlyArray<{ connected(timeoutMs: number): Promise<unknown> } | null>,
  seconds: number,
): Promise<void> {
  await Promise.all(
    servers.map((server) => server?.connected(seconds * 1000).catch(() => undefined)),
  );
}

function serverLines(servers: McpServerEntry[]): string[] {
  if (servers.length === 0)
    return ['no MCP servers (none configured, none written in a definition)'];
  const header = ['NAME', 'TRANSPORT', 'STATUS', 'TOOLS', 'SOURCE', 'DECLARED BY', 'LAST ERROR'];
  const rows = servers.map((server) => [
    server.name,
    server.transport,
    server.status,
    server.toolCount === null ? '-' : String(server.toolCount),
    server.source,
    server.declaredBy.join(',') || '-',
    server.status === 'connected' ? '' : oneLine(server.lastError ?? '', 120),
  ]);
  return table([header, ...rows]);
}

function toolLines(answer: McpServerTools): string[] {
  if (answer.tools.length === 0) return [`${answer.serverName}: no tools`];
  return table(
    answer.tools.map((tool) => [tool.name, oneLine(tool.description.split('\n')[0] ?? '', 120)]),
  );
}

/** A word as a shell would need it quoted to mean the same. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}

/** What was approved or withdrawn, and exactly which content: for the person who did it. */
function trustLines(answer: McpTrustAnswer): string[] {
  const { wouldRun } = answer;
  const lines = [
    answer.approved
      ? `approved MCP server '${answer.server}' from .mcp.json, as it is now:`
      : `withdrew the approval of MCP server '${answer.server}' from .mcp.json; it is not started until a person approves it again:`,
  ];
  if (wouldRun.command !== undefined) {
    lines.push(
      `  runs:    ${[wouldRun.command, ...(wouldRun.args ?? [])].map(shellWord).join(' ')}`,
    );
  }
  if (wouldRun.url !== undefined) lines.push(`  url:     ${wouldRun.url}`);
  if (wouldRun.envNames.length > 0) lines.push(`  env:     ${wouldRun.envNames.join(', ')}`);
  if (wouldRun.headerNames.length > 0) {
    lines.push(`  headers: ${wouldRun.headerNames.join(', ')}`);
  }
  lines.push(`  sha256:  ${answer.hash}`);
  return lines;
}

/** Why the tools could not be listed, or null when they were. */
function notConnected(answer: McpServerTools, seconds: number): string | null {
  const server = `MCP server '${answer.serverName}'`;
  switch (answer.status) {
    case 'connected':
      return null;
    case 'disabled':
      return `${server} is disabled (enabled: false in ${answer.source})`;
    case 'connecting':
      return `${server} is still connecting after ${seconds} s${answer.lastError === null ? '' : ` (last error: ${answer.lastError})`}`;
    case 'failed':
      return `${server} could not be connected: ${answer.lastError ?? 'unknown error'}`;
    case 'untrusted':
    case 'refused':
      // The gate's own words: which file, why, and how a person approves it.
      return `${server} is not started: ${answer.lastError ?? answer.status}`;
  }
}

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per command, each short.
export function registerMcpCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  const mcp = program
    .command('mcp')
    .description('MCP servers: status and tools; deputy itself as an MCP server (serve)');
  registerMcpServeCommand(mcp, run);

  mcp
    .command('list')
    .description('every configured or declared MCP server, connected to see how it is doing')
    .option('--json', 'machine-readable output (as GET /workspace/mcp)')
    .option(
      '--wait <seconds>',
      `wait at most this long for each server to connect or fail (default ${DEFAULT_WAIT_SECONDS})`,
      parseWait,
    )
    .action(async (options: { json?: boolean; wait?: number }, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const seconds = options.wait ?? DEFAULT_WAIT_SECONDS;
        return withMcp(command, io, async ({ config, registry, runtime, secrets, view }) => {
          const sources = { runtime, config, definitions: registry };
          const known = view.knownMcpServers(sources);
          await settle(
            known.map((server) => view.pooledServer(sources, server.spec)),
            seconds,
          );
          const answer = secrets.value(view.mcpServerList(sources));
          if (options.json) printJson(io, answer);
          else for (const line of serverLines(answer.servers)) io.out(line);
          return EXIT.ok;
        });
      }),
    );

  mcp
    .command('tools')
    .description("one MCP server's tools (name and first line of the description)")
    .argument('<server>', 'server name')
    .option('--json', 'machine-readable output (as GET /workspace/mcp/:server/tools)')
    .option(
      '--wait <seconds>',
      `wait at most this long for the server to connect (default ${DEFAULT_WAIT_SECONDS})`,
      parseWait,
    )
    .action(async (name: string, options: { json?: boolean; wait?: number }, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const seconds = options.wait ?? DEFAULT_WAIT_SECONDS;
        return withMcp(command, io, async ({ config, registry, runtime, secrets, view }) => {
          const sources = { runtime, config, definitions: registry };
          const known = view.findMcpServer(sources, name);
          if (known === undefined) {
            const names = [...new Set(view.knownMcpServers(sources).map((s) => s.spec.name))];
            throw new DeputyError(
              'not-found',
              `no MCP server named '${oneLine(name, 64)}' (known: ${names.join(', ') || 'none'})`,
              { code: 'mcp_server_not_found' },
            );
          }
          // Only this one is connected: the others' processes are not started for nothing.
          await settle([view.pooledServer(sources, known.spec)], seconds);
          const answer = secrets.value(view.mcpServerTools(sources, known));
          const problem = notConnected(answer, seconds);
          if (options.json) printJson(io, answer);
          else if (problem === null) for (const line of toolLines(answer)) io.out(line);
          if (problem === null) return EXIT.ok;
          io.err(`deputy: ${secrets.text(problem)}`);
          return EXIT.failed;
        });
      }),
    );

  mcp
    .command('trust')
    .description(
      'approve a .mcp.json server as the file says it now (its command or URL, args, env, headers)',
    )
    .argument('<server>', 'server name')
    .option('--hash <sha256>', 'approve only if the server still has this hash (from a listing)')
    .option('--json', 'machine-readable output (as POST /workspace/mcp/:server/trust)')
    .action(async (name: string, options: { json?: boolean; hash?: string }, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const { trustMcpServer } = await import('../../mcp-client/trust-actions.js');
        return withMcp(command, io, async ({ config, registry, runtime, secrets }) => {
          const sources = { runtime, config, definitions: registry };
          const answer = secrets.value(
            await trustMcpServer(sources, name, { hash: options.hash, by: localOperatorId() }),
          );
          if (options.json) printJson(io, answer);
          else for (const line of trustLines(answer)) io.out(line);
          if (answer.problem !== null) io.err(`deputy: it does not start yet: ${answer.problem}`);
          return EXIT.ok;
        });
      }),
    );

  mcp
    .command('untrust')
    .description(
      'withdraw the approval of a .mcp.json server: it is not started again until approved',
    )
    .argument('<server>', 'server name')
    .option('--json', 'machine-readable output (as DELETE /workspace/mcp/:server/trust)')
    .action(async (name: string, options: { json?: boolean }, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const { untrustMcpServer } = await import('../../mcp-client/trust-actions.js');
        return withMcp(command, io, async ({ config, registry, runtime, secrets }) => {
          const sources = { runtime, config, definitions: registry };
          const answer = secrets.value(await untrustMcpServer(sources, name));
          if (options.json) printJson(io, answer);
          else for (const line of trustLines(answer)) io.out(line);
          return EXIT.ok;
        });
      }),
    );
}
