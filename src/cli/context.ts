/**
 * What every command needs: the configuration (from global options, environment and the
 * workspace file) and, for the client commands, a Delegations facade on a live connection.
 */
import type { Command } from 'commander';
import type { ConfigOverrides, DeputyConfig } from '../config.js';
import { toolQueueOf } from '../shared/tool-queue.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import type { Sessions } from '../temporal/sessions/facade.js';
import type { Io } from './io.js';

export interface GlobalOptions {
  workspace?: string;
  dataDir?: string;
}

/** Global options are declared on the root program; read them from any subcommand. */
export function globalOptions(command: Command): GlobalOptions {
  let root = command;
  while (root.parent) root = root.parent;
  return root.opts<GlobalOptions>();
}

/**
 * The configuration, loaded on first need: its schema (zod, yaml) is a good part of a short
 * command's start, and `--help` or a command answered by the local API need none of it.
 */
export async function configFor(
  command: Command,
  extra: ConfigOverrides = {},
): Promise<DeputyConfig> {
  const global = globalOptions(command);
  const { loadConfig } = await import('../config.js');
  return loadConfig({
    ...(global.workspace === undefined ? {} : { workspace: global.workspace }),
    ...(global.dataDir === undefined ? {} : { dataDir: global.dataDir }),
    ...extra,
  });
}

/**
 * The configuration's warnings (a literal secret in the file...), one `warning:` line each on
 * stderr. They name fields, never values, so they are safe on any terminal.
 */
export function printConfigWarnings(config: DeputyConfig, io: Io): void {
  for (const warning of config.warnings) io.err(`warning: ${warning}`);
}

/**
 * The Temporal client and deputy's facades on it, loaded by the commands that connect: loading
 * `@temporalio/client` is most of a short command's time, and `--help` or `agents list` need none.
 */
async function clientModules() {
  const [connection, delegations, sessions] = await Promise.all([
    import('../temporal/connection.js'),
    import('../temporal/delegations/facade.js'),
    import('../temporal/sessions/facade.js'),
  ]);
  return {
    connectTemporal: connection.connectTemporal,
    createDelegations: delegations.createDelegations,
    createSessions: sessions.createSessions,
  };
}

/** Runs `fn` with a facade on a fresh connection, and closes the connection after. */
export async function withDelegations<T>(
  command: Command,
  fn: (delegations: Delegations, config: DeputyConfig) => Promise<T>,
): Promise<T> {
  const config = await configFor(command);
  const { connectTemporal, createDelegations } = await clientModules();
  const temporal = await connectTemporal(config);
  try {
    const { namespace, taskQueue } = config.temporal;
    const toolQueue = toolQueueOf(config.temporal);
    return await fn(
      createDelegations(temporal.client, { namespace, taskQueue, toolQueue }),
      config,
    );
  } finally {
    await temporal.close();
  }
}

/** Runs `fn` with the Sessions facade (and the Delegations one it reads through) on a fresh connection. */
export async function withSessions<T>(
  command: Command,
  fn: (sessions: Sessions, delegations: Delegations, config: DeputyConfig) => Promise<T>,
): Promise<T> {
  const config = await configFor(command);
  const { connectTemporal, createDelegations, createSessions } = await clientModules();
  const temporal = await connectTemporal(config);
  const { namespace, taskQueue } = config.temporal;
  // Delegations and sessions started from this workspace run their tools on its tool queue.
  const toolQueue = toolQueueOf(config.temporal);
  try {
    const delegations = createDelegations(temporal.client, { namespace, taskQueue, toolQueue });
    const sessions = createSessions(temporal.client, delegations, { taskQueue, toolQueue });
    return await fn(sessions, delegations, config);
  } finally {
    await temporal.close();
  }
}
