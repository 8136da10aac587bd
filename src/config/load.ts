/**
 * One validated configuration: `<workspace>/.subagents/config.yaml` (optional) overlaid by
 * environment variables and command-line flags. Secrets (API keys, bearer tokens, MCP env and
 * headers) are referenced here, as `${NAME}` or a `*Env` key naming a variable, and resolved only
 * where they are used; a literal secret in the file is a warning (src/config/config-secrets.ts).
 * Every configured secret value is masked where data enters history or leaves the process
 * (src/secrets/masker.ts).
 */

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../shared/config-error.js';
import { jsonSyntaxProblem } from '../json-problem.js';
import { dataDirectory, workspaceDirectory } from '../paths/workspace-directories.js';
import { NotRegularFileError, readRegularTextSync } from '../paths/regular-file.js';
import { TASK_QUEUE } from '../shared/delegation.js';
import { scanConfigSecrets, shortSecretWarnings } from './config-secrets.js';
import { redactSecretText } from '../shared/redact.js';
import { WORKSPACE_ID_PATTERN, WORKSPACE_ID_RULE } from '../shared/workflow-contract/tool-queue.js';
import { workerEnvOverrides, workerTuningProblems } from './worker-tuning.js';
import type { TemporalFileSchema } from './schema.js';
import {
  ConfigFileSchema,
  ConfiguredMcpServerSchema,
  type ConfigFile,
  type ConfiguredMcpServer,
  type ConfigOverrides,
  type DeputyConfig,
} from './schema.js';

export const PROJECT_ROOT = resolve(new URL('../..', import.meta.url).pathname);

/** `<workspace>/.subagents/config.yaml`, the one file of the configuration. */
export function configFilePath(workspace: string): string {
  return join(workspace, '.subagents', 'config.yaml');
}

/** What the configuration file decides: everything but the locations, Temporal and the API. */
export type ConfigFileSettings = Pick<
  DeputyConfig,
  keyof ConfigFile | 'warnings' | 'secrets' | 'mcpServerOrigins' | 'mcpJsonProblem'
>;

/**
 * Reads and validates the file part of the configuration (missing file: the defaults). Throws
 * `ConfigError` with every problem listed; messages name the file, field paths and YAML
 * positions, never a value, so they are safe to log and to answer (`GET /health`). Called at
 * start by `loadConfig` and again by the watcher (src/config/watch.ts) on each edit.
 */
export function readConfigFile(
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): ConfigFileSettings {
  return parseConfigFile(workspace, env).settings;
}

/** The file's settings and its `temporal` section, which only `loadConfig` reads. */
function parseConfigFile(
  workspace: string,
  env: NodeJS.ProcessEnv,
): { settings: ConfigFileSettings; temporal: z.infer<typeof TemporalFileSchema> } {
  const configPath = configFilePath(workspace);
  let raw: unknown = {};
  if (existsSync(configPath)) {
    try {
      // logLevel 'error': yaml would print its warnings, with the source line quoted, to stderr.
      raw = parseYaml(readRegularTextSync(configPath), { logLevel: 'error' }) ?? {};
    } catch (error) {
      if (error instanceof NotRegularFileError) throw new ConfigError(error.message);
      throw new ConfigError(`${configPath}: not valid YAML: ${yamlProblem(error)}`);
    }
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`${configPath} is invalid:\n${lines.join('\n')}`);
  }
  // `temporal` stays out of the settings: the watcher merges them over the start's locations.
  const { temporal = {}, ...data } = parsed.data;
  const worker = workerSection(data.worker, env);
  const ecosystem = readMcpJson(workspace, Object.keys(data.mcpServers));
  const scan = scanConfigSecrets({ ...(raw as object), mcpJson: ecosystem.raw });
  const settings: ConfigFileSettings = {
    ...data,
    worker,
    mcpServers: { ...ecosystem.servers, ...data.mcpServers },
    mcpServerOrigins: Object.fromEntries([
      ...Object.keys(ecosystem.servers).map((name) => [name, '.mcp.json'] as const),
      ...Object.keys(data.mcpServers).map((name) => [name, 'config.yaml'] as const),
    ]),
    warnings: [
      ...scan.warnings,
      ...ecosystem.warnings,
      ...(ecosystem.problem === null ? [] : [ecosystem.problem]),
      ...shortSecretWarnings(scan.secrets, env),
    ],
    secrets: scan.secrets,
    mcpJsonProblem: ecosystem.problem,
  };
  return { settings, temporal };
}

/**
 * The workspace id: DEPUTY_WORKSPACE_ID (blank: unset) over the file's `temporal.workspaceId`.
 * The variable is checked like the file's key; the message names both, never the value.
 */
function workspaceIdOf(fileValue: string | undefined, env: NodeJS.ProcessEnv): string | null {
  const fromEnv = env.DEPUTY_WORKSPACE_ID?.trim();
  if (fromEnv) {
    if (!WORKSPACE_ID_PATTERN.test(fromEnv)) {
      throw new ConfigError(
        `DEPUTY_WORKSPACE_ID (temporal.workspaceId) is not a valid workspace id: ${WORKSPACE_ID_RULE}`,
      );
    }
    return fromEnv;
  }
  return fileValue ?? null;
}

/**
 * The file's `worker:` section overlaid by the `DEPUTY_WORKER_*` variables (env wins, like
 * every other override). A bad variable or combination is a ConfigError naming the key.
 */
function workerSection(file: ConfigFile['worker'], env: NodeJS.ProcessEnv): ConfigFile['worker'] {
  const overrides = workerEnvOverrides(env);
  const worker = { ...file, ...overrides.values };
  const problems = [...overrides.problems, ...workerTuningProblems(worker)];
  if (problems.length > 0) {
    throw new ConfigError(`worker tuning is invalid:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return worker;
}

/** Claude Code's project MCP file, read as it is (`{mcpServers: {name: {type, command, ...}}}`). */
export function mcpJsonPath(workspace: string): string {
  return join(workspace, '.mcp.json');
}

/**
 * The servers of `.mcp.json` in deputy's form. `type: sse` and entries that do not validate are
 * warnings (the file belongs to another tool); a name config.yaml also configures is
 * config.yaml's, with a warning. A file that cannot be read or is not JSON is a `problem`, not an
 * error: agents can write this file, and one bad write must not keep any command from starting.
 * Its servers are then all off (at start and after an edit alike: the last good version is not
 * kept, so what runs is never something the file on disk no longer says).
 */
function readMcpJson(
  workspace: string,
  configured: readonly string[],
): {
  servers: Record<string, ConfiguredMcpServer>;
  raw: unknown;
  warnings: string[];
  problem: string | null;
} {
  const path = mcpJsonPath(workspace);
  const none = { servers: {}, raw: {}, warnings: [] };
  if (!existsSync(path)) return { ...none, problem: null };
  const off = 'none of its MCP servers is configured until it is fixed';
  let text: string;
  try {
    text = readRegularTextSync(path);
  } catch (error) {
    // A FIFO here would block the open, and with it the whole process: it is refused unread.
    if (error instanceof NotRegularFileError)
      return { ...none, problem: `${error.message}; ${off}` };
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return { ...none, problem: `${path}: cannot be read (${code}); ${off}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // V8's message can quote the file; the scanner says where, in words of its own.
    const problem = jsonSyntaxProblem(text) ?? 'not valid JSON';
    return { ...none, problem: `${path}: ${problem}; ${off}` };
  }
  const entries = (raw as { mcpServers?: unknown } | null)?.mcpServers;
  const servers: Record<string, ConfiguredMcpServer> = {};
  const warnings: string[] = [];
  if (entries === null || typeof entries !== 'object' || Array.isArray(entries)) {
    return {
      servers,
      raw,
      warnings: [`${path}: no mcpServers object; nothing read from it`],
      problem: null,
    };
  }
  for (const [name, entry] of Object.entries(entries as Record<string, unknown>)) {
    const source = (entry ?? {}) as Record<string, unknown>;
    const type = source.type ?? (source.command === undefined ? source.type : 'stdio');
    if (configured.includes(name)) {
      warnings.push(`${path}: server '${name}' is also in config.yaml, which wins`);
      continue;
    }
    const candidate = {
      transport: type === 'streamable-http' || type === 'streamableHttp' ? 'http' : type,
      command: source.command,
      args: source.args,
      env: source.env,
      endpoint: source.url ?? source.httpUrl,
      headers: source.headers,
    };
    const parsedServer = ConfiguredMcpServerSchema.safeParse(
      Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined)),
    );
    if (!parsedServer.success) {
      const why = parsedServer.error.issues
        .map((issue) => `${issue.path.join('.') || '(server)'}: ${issue.message}`)
        .join('; ');
      warnings.push(
        type === 'sse'
          ? `${path}: server '${name}' uses the sse transport, which deputy does not speak (stdio, http); not configured`
          : `${path}: server '${name}' is not usable (${why}); not configured`,
      );
      continue;
    }
    servers[name] = parsedServer.data;
  }
  return { servers, raw, warnings, problem: null };
}

/**
 * A YAML error without the source excerpt the library appends (the offending line, which may
 * hold a literal secret): its first line, e.g. `Map keys must be unique at line 2, column 1`.
 * Secret-looking parts left in it (a tag or alias name) are cut as well.
 */
function yamlProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = (message.split('\n')[0] ?? '').replace(/:\s*$/, '');
  return redactSecretText(firstLine);
}

/**
 * Reads and validates the configuration. Throws `ConfigError` with every problem listed.
 *
 * The locations (workspace, data and user directories, project root), `temporal` and `api` are
 * fixed here for the process's lifetime; only the file part (`readConfigFile`) is read again
 * when the file changes.
 */
export function loadConfig(
  overrides: ConfigOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
): DeputyConfig {
  const workspace = workspaceDirectory(overrides, env);
  const { settings: file, temporal } = parseConfigFile(workspace, env);
  const portText = overrides.port ?? env.DEPUTY_PORT;
  const port = portText === undefined ? 4780 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`port ${String(portText)} is not a TCP port`);
  }
  return {
    ...file,
    workspace,
    dataDir: dataDirectory(workspace, overrides, env),
    userDir: resolve(env.DEPUTY_USER_DIR ?? join(homedir(), '.config', 'deputy')),
    projectRoot: PROJECT_ROOT,
    temporal: {
      address: overrides.temporalAddress ?? env.TEMPORAL_ADDRESS ?? null,
      namespace: env.TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: env.DEPUTY_TASK_QUEUE?.trim() || TASK_QUEUE,
      workspaceId: workspaceIdOf(temporal.workspaceId, env),
    },
    api: { host: env.DEPUTY_HOST ?? '127.0.0.1', port },
  };
}
