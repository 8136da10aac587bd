/**
 * `deputy mcp serve`: deputy as an MCP server on stdio, for a host's configuration:
 * `claude mcp add deputy -- npx deputy mcp serve`. It talks to Temporal directly, as the local
 * operator (what the CLI already is), and reads the workspace's agents, following their files.
 * stdout carries MCP only; every line for people goes to stderr. It ends when the host closes
 * stdin, or on SIGINT/SIGTERM; the delegations it started run on without it.
 */
import type { Command } from 'commander';
import { localOperator } from '../../local-operator.js';
import type { PermissionMode } from '../../shared/policy-contract.js';
import { configFor, printConfigWarnings } from '../context.js';
import { parseCallerMode } from '../option-parsers.js';
import { EXIT, type ExitCode, type Run } from '../exit-codes.js';
import type { Io } from '../io.js';
import { untilSignal } from '../servers/signals.js';

export function registerMcpServeCommand(
  mcp: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  mcp
    .command('serve')
    .description(
      'serve the workspace’s agents as MCP tools on stdio, each call a durable delegation (for an MCP host)',
    )
    .option(
      '--mode <mode>',
      "a permission ceiling over every call served (Claude Code's names: plan, default, acceptEdits, dontAsk, bypassPermissions)",
      parseCallerMode,
    )
    .action(async (options: { mode?: PermissionMode }, command: Command) =>
      run(command, (io) => serve(command, io, options.mode)),
    );
}

async function serve(
  command: Command,
  io: Io,
  mode: PermissionMode | undefined,
): Promise<ExitCode> {
  const config = await configFor(command);
  printConfigWarnings(config, io);
  const [
    { StdioServerTransport },
    { connectTemporal, temporalAddress },
    { facadesFor },
    { createRegistry },
    { createMcpDoor },
    { liveSecretMasker },
    { definitionSecretSource },
    { fixedConfig },
  ] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../../temporal/connection.js'),
    import('../../temporal/facades.js'),
    import('../../definitions/registry/registry.js'),
    import('../../mcp-door/door.js'),
    import('../../secrets/live-masker.js'),
    import('../../secrets/definition-secrets.js'),
    import('../../config/live-config.js'),
  ]);
  const temporal = await connectTemporal(config);
  const registry = createRegistry({ config });
  try {
    await registry.load();
    // Follows the definitions' files: the host hears of a changed agent list (tools/list_changed).
    await registry.watch();
    const secrets = liveSecretMasker(
      fixedConfig(config),
      process.env,
      definitionSecretSource(registry),
    );
    // The same masker for what the door answers and for what a host's decisions send in.
    const { delegations } = facadesFor(temporal.client, config.temporal, secrets);
    const door = createMcpDoor(
      {
        delegations,
        definitions: registry,
        secrets,
        ...(mode === undefined ? {} : { callerMode: mode }),
        log: (message) => io.err(`deputy mcp serve: ${message}`),
      },
      localOperator(),
    );
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await door.server.connect(transport);
    io.err(
      `deputy mcp serve: ${registry.list().length} agent(s) on stdio, Temporal at ${temporalAddress(config)}`,
    );
    await Promise.race([closed, untilSignal()]);
    await door.close();
    return EXIT.ok;
  } finally {
    await registry.close();
    await temporal.close();
  }
}
