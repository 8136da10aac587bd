/**
 * One validated configuration: `<workspace>/.subagents/config.yaml` (optional) overlaid by
 * environment variables and command-line flags. Secrets (API keys, bearer tokens, MCP env and
 * headers) are referenced here, as `${NAME}` or a `*Env` key naming a variable, and resolved only
 * where they are used; a literal secret in the file is a warning (src/secrets/config-secrets.ts).
 * Every configured secret value is masked where data enters history or leaves the process
 * (src/secrets/masker.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DurationSchema } from './definitions/schema.js';
import { ConfigError } from './shared/config-error.js';
import { jsonSyntaxProblem } from './json-problem.js';
import { dataDirectory, workspaceDirectory } from './paths/workspace-directories.js';
import { CARD_TIMEOUT_OUTCOMES } from './shared/capability-snapshot.js';
import { TASK_QUEUE } from './shared/delegation.js';
import { NOTIFICATION_EVENTS } from './shared/notifications.js';
import {
  scanConfigSecrets,
  shortSecretWarnings,
  type ConfigSecrets,
} from './secrets/config-secrets.js';
import { redactSecretText } from './shared/redact.js';
import { WORKSPACE_ID_PATTERN, WORKSPACE_ID_RULE } from './shared/tool-queue.js';
import {
  WORKER_TUNING_DEFAULTS,
  WorkerTuningSchema,
  workerEnvOverrides,
  workerTuningProblems,
} from './worker-tuning.js';

export const ModelEntrySchema = z.object({
  provider: z.enum(['openai', 'anthropic']),
  /** Provider-side model name, e.g. `gpt-4o-mini`, `llama3.1`. */
  model: z.string().min(1),
  /** OpenAI-compatible base URL (OpenAI, Ollama, vLLM, llama.cpp server...). */
  baseUrl: z.string().url().optional(),
  /** Name of the environment variable holding the API key; the key itself is never in config. */
  apiKeyEnv: z.string().optional(),
});
export type ModelEntry = z.infer<typeof ModelEntrySchema>;

export const ConfiguredMcpServerSchema = z.object({
  transport: z.enum(['stdio', 'http']),
  command: z.string().optional(),
  args: z.array(z.string()).default([]),
  /**
   * Environment of a stdio server. Secret values are written as `${NAME}` references, resolved
   * by the MCP pool when it starts the server (src/mcp/pool.ts), never stored.
   */
  env: z.record(z.string(), z.string()).default({}),
  endpoint: z.string().url().optional(),
  /** Headers of an http server; `Authorization: Bearer ${NAME}`, like `env`. */
  headers: z.record(z.string(), z.string()).default({}),
  toolTimeoutSeconds: z.number().min(0).optional(),
  auth: z.literal('bearer').optional(),
  /** OAuth client credentials of an http server; write `clientSecret` as `${NAME}`. */
  oauth: z
    .object({
      clientId: z.string().min(1),
      clientSecret: z.string().optional(),
      tokenUrl: z.string().url().optional(),
      scopes: z.array(z.string()).optional(),
    })
    .strict()
    .optional(),
  approve: z.array(z.string()).default([]),
  enabled: z.boolean().default(true),
});
export type ConfiguredMcpServer = z.infer<typeof ConfiguredMcpServerSchema>;

/**
 * The workspace's card deadlines: what a definition without `cardTimeout` (and the others)
 * falls back to. Nothing here means cards wait for a decision as long as it takes.
 */
export const CardsConfigSchema = z
  .object({
    timeout: DurationSchema.optional(),
    reminder: DurationSchema.optional(),
    timeoutOutcome: z.enum(CARD_TIMEOUT_OUTCOMES).default('deny'),
  })
  .strict();
export type CardsConfig = z.infer<typeof CardsConfigSchema>;

/** A webhook: where to POST, which events, and the variable holding its HMAC secret. */
export const WebhookSchema = z
  .object({
    url: z
      .url()
      .refine((url) => /^https?:\/\//i.test(url), { message: 'must be an http or https URL' }),
    events: z.array(z.enum(NOTIFICATION_EVENTS)).min(1),
    /** Names the environment variable holding the signing secret; the secret is never here. */
    secretEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional(),
  })
  .strict();
export type Webhook = z.infer<typeof WebhookSchema>;

/**
 * `temporal:` in the file. `workspaceId` (env DEPUTY_WORKSPACE_ID wins) makes this workspace's
 * workers poll a tool queue of their own, `<taskQueue>-tools/<workspaceId>`, on which the
 * workspace-bound activities of delegations started here run (docs/operations.md).
 */
export const TemporalFileSchema = z
  .object({
    workspaceId: z.string().regex(WORKSPACE_ID_PATTERN, { message: WORKSPACE_ID_RULE }).optional(),
  })
  .strict();

export const TokenSchema = z.object({ user: z.string().min(1), roles: z.array(z.string()) });

export const ConfigFileSchema = z
  .object({
    models: z
      .object({
        /** Handle used when a definition says `model: default`. */
        default: z.string().default('scripted:agents/scripts/echo.yaml'),
        catalog: z.record(z.string(), ModelEntrySchema).default({}),
        /** Ecosystem aliases (`sonnet`, `opus`, `haiku`) -> catalog handle. */
        aliases: z.record(z.string(), z.string()).default({}),
        /** Operator override: agent name -> handle, wins over the definition's own choice. */
        overrides: z.record(z.string(), z.string()).default({}),
      })
      .default({
        default: 'scripted:agents/scripts/echo.yaml',
        catalog: {},
        aliases: {},
        overrides: {},
      }),
    mcpServers: z.record(z.string(), ConfiguredMcpServerSchema).default({}),
    skills: z.object({ pluginDirs: z.array(z.string()).default([]) }).default({ pluginDirs: [] }),
    /** Extra writable roots (absolute or workspace-relative); the workspace itself is always one. */
    writableRoots: z.array(z.string()).default([]),
    auth: z
      .object({
        /** Environment variable names whose values are bearer tokens, mapped to a user and roles. */
        tokens: z.record(z.string(), TokenSchema).default({}),
      })
      .optional(),
    /** Default per-MCP-call timeout in seconds (CAP-3); 0 = none. */
    mcpToolTimeoutSeconds: z.number().min(0).default(60),
    /** Wait between attempts to (re)connect an MCP server, seconds (CAP-3). */
    mcpReconnectSeconds: z.number().positive().default(5),
    /**
     * The variable holding deputy's own bearer token, sent only to http MCP servers that opt in
     * with `auth: bearer` (CAP-3).
     */
    mcpBearerTokenEnv: z.string().default('DEPUTY_MCP_TOKEN'),
    /**
     * Worker tuning (src/worker-tuning.ts): cache size, concurrency, shutdown grace. Each key is
     * overridden by `DEPUTY_WORKER_<UPPER_SNAKE>`; read when a worker starts.
     */
    worker: WorkerTuningSchema.default({ ...WORKER_TUNING_DEFAULTS }),
    /** Webhooks told of cards and finished delegations (src/activities/deliver-webhook.ts). */
    notifications: z
      .object({ webhooks: z.record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/), WebhookSchema) })
      .strict()
      .default({ webhooks: {} }),
    /** Card deadlines for definitions that set none (`cardTimeout`, `cardReminder`, ...). */
    cards: CardsConfigSchema.default({ timeoutOutcome: 'deny' }),
    /**
     * What the servers of `.mcp.json` (a file agents can write) may reference: `variables` maps a
     * server's name to the environment variables its `${NAME}` references may name. A reference
     * to any other variable keeps the server from starting (src/mcp/start-gate.ts).
     */
    mcpJson: z
      .object({
        variables: z
          .record(
            z.string(),
            z.array(
              z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
                message: 'must be an environment variable name',
              }),
            ),
          )
          .default({}),
      })
      .strict()
      .default({ variables: {} }),
    /**
     * The file's part of `temporal` (the rest comes from the environment): read once, at start,
     * into `DeputyConfig.temporal`; an edit while running is not applied.
     */
    temporal: TemporalFileSchema.optional(),
  })
  .strict();
/** What the file decides and is read again on each edit: all but its `temporal` section. */
export type ConfigFile = Omit<z.infer<typeof ConfigFileSchema>, 'temporal'>;

export interface DeputyConfig extends ConfigFile {
  /** Real absolute path of the workspace. */
  workspace: string;
  /** Where deputy keeps its state (Temporal's SQLite file, memory, revisions). */
  dataDir: string;
  /** Per-user definitions and skills (DEF-3 `user` level). */
  userDir: string;
  /** The project's own directory (built-in agents and skills). */
  projectRoot: string;
  /**
   * `taskQueue`: the queue workers poll and every delegation and session starts on (env
   * DEPUTY_TASK_QUEUE; default `deputy-delegations`). Workers and clients of one deployment
   * must agree on it. `workspaceId` (file `temporal.workspaceId`, env DEPUTY_WORKSPACE_ID; null
   * when neither is set): this workspace's tool queue is `toolQueueOf(temporal)`.
   */
  temporal: {
    address: string | null;
    namespace: string;
    taskQueue: string;
    workspaceId: string | null;
  };
  api: { host: string; port: number };
  /**
   * Problems that do not stop a command (a literal secret in the file), safe to print: each names
   * a field, never its value. `deputy dev|worker|api` print them on start, `agents list` too.
   */
  warnings: string[];
  /** Where the file keeps secrets: variable names, and literal values that never serialize. */
  secrets: ConfigSecrets;
  /** Which file configured each of `mcpServers`: `config.yaml` or `.mcp.json`. */
  mcpServerOrigins: Record<string, 'config.yaml' | '.mcp.json'>;
  /**
   * Why `.mcp.json` could not be read (not JSON, unreadable), or null: then none of its servers
   * is configured. Names the file and the position, never its content (it is also a warning).
   */
  mcpJsonProblem: string | null;
}

export interface ConfigOverrides {
  workspace?: string;
  dataDir?: string;
  port?: number;
  temporalAddress?: string;
}

export const PROJECT_ROOT = resolve(new URL('..', import.meta.url).pathname);

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
 * start by `loadConfig` and again by the watcher (src/config-watch.ts) on each edit.
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
      raw = parseYaml(readFileSync(configPath, 'utf8'), { logLevel: 'error' }) ?? {};
    } catch (error) {
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
    text = readFileSync(path, 'utf8');
  } catch (error) {
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
