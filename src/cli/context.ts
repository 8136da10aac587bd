/**
 * What every command needs: the configuration (from global options, environment and the
 * workspace file) and, for the client commands, a Delegations facade on a live connection.
 */
import type { Command } from 'commander';
import type { ConfigOverrides, DeputyConfig } from '../config/schema.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import type { Sessions } from '../temporal/sessions/facade.js';
import type { Facades } from '../temporal/facades.js';
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
  const { loadConfig } = await import('../config/load.js');
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
  const [connection, facades, masker] = await Promise.all([
    import('../temporal/connection.js'),
    import('../temporal/facades.js'),
    import('../secrets/masker.js'),
  ]);
  return {
    connectTemporal: connection.connectTemporal,
    facadesFor: facades.facadesFor,
    secretMaskerFor: masker.secretMaskerFor,
  };
}

/** Runs `fn` with the facades on a fresh connection, and closes the connection after. */
async function withFacades<T>(
  command: Command,
  fn: (facades: Facades, config: DeputyConfig) => Promise<T>,
): Promise<T> {
  const config = await configFor(command);
  const { connectTemporal, facadesFor, secretMaskerFor } = await clientModules();
  const temporal = await connectTemporal(config);
  try {
    // Decisions typed here are masked with the configured secrets, as tasks are.
    return await fn(facadesFor(temporal.client, config.temporal, secretMaskerFor(config)), config);
  } finally {
    await temporal.close();
  }
}

export function withDelegations<T>(
  command: Command,
  fn: (delegations: Delegations, config: DeputyConfig) => Promise<T>,
): Promise<T> {
  return withFacades(command, ({ delegations }, config) => fn(delegations, config));
}

/** Runs `fn` with the Schedules facade. */
export function withSchedules<T>(
  command: Command,
  fn: (schedules: Facades['schedules'], config: DeputyConfig) => Promise<T>,
): Promise<T> {
  return withFacades(command, ({ schedules }, config) => fn(schedules, config));
}

/** Runs `fn` with the Sessions facade (and the Delegations one it reads through). */
export function withSessions<T>(
  command: Command,
  fn: (sessions: Sessions, delegations: Delegations, config: DeputyConfig) => Promise<T>,
): Promise<T> {
  return withFacades(command, ({ sessions, delegations }, config) =>
    fn(sessions, delegations, config),
  );
}
