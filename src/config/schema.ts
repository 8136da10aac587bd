/**
 * The configuration's shape: `<workspace>/.subagents/config.yaml` as zod schemas, and the
 * `DeputyConfig` every part of deputy reads (the file's settings, the locations, Temporal and the
 * API). How it is read and overlaid by the environment is src/config/load.ts.
 */
import { z } from 'zod';
import { DurationSchema } from './duration.js';
import { CARD_TIMEOUT_OUTCOMES } from '../shared/capability-snapshot.js';
import { NOTIFICATION_EVENTS } from '../shared/workflow-contract/notifications.js';
import { type ConfigSecrets } from './config-secrets.js';
import { WORKSPACE_ID_PATTERN, WORKSPACE_ID_RULE } from '../shared/workflow-contract/tool-queue.js';
import { WORKER_TUNING_DEFAULTS, WorkerTuningSchema } from './worker-tuning.js';
import { LinksConfigSchema } from './links-schema.js';
import { SandboxDeclarationSchema } from './sandbox-schema.js';
import { DEFAULT_SCHEDULE_MIN_INTERVAL, SchedulesConfigSchema } from './schedules-schema.js';

/** The longest `timeoutSeconds` of a model entry: the model-call activity itself ends at 600 s. */
export const MAX_MODEL_TIMEOUT_SECONDS = 540;

export const ModelEntrySchema = z.object({
  provider: z.enum(['openai', 'anthropic']),
  /** Provider-side model name, e.g. `gpt-4o-mini`, `llama3.1`. */
  model: z.string().min(1),
  /** OpenAI-compatible base URL (OpenAI, Ollama, vLLM, llama.cpp server...). */
  baseUrl: z.string().url().optional(),
  /** Name of the environment variable holding the API key; the key itself is never in config. */
  apiKeyEnv: z.string().optional(),
  /**
   * `max_tokens` of each answer. Default: not sent for `openai` (the server decides), 4096 for
   * `anthropic` (its API requires one). An answer cut at it is reported, never run half-written.
   */
  maxTokens: z.number().int().min(1).optional(),
  /**
   * Longest wait for one answer, seconds. Default and maximum 540: under the model-call
   * activity's 10-minute limit, so a slow server fails with the model's own message.
   */
  timeoutSeconds: z.number().min(1).max(MAX_MODEL_TIMEOUT_SECONDS).optional(),
  /**
   * Reads a tool call a model writes as JSON text in its answer (`{"name": ..., "arguments":
   * ...}`, bare, fenced or in `<tool_call>` tags) as a real tool call, for small local models
   * whose server does not turn it into `tool_calls`. Only names of the agent's tools count.
   * Default false.
   */
  toolCallsInContent: z.boolean().optional(),
  /**
   * The model's context window, tokens: a delegation compacts its transcript once a
   * model call's input passes 75 % of it. Default `DEFAULT_CONTEXT_TOKENS` (32,768): small enough
   * for most served models; set the real window of a larger one, or compaction comes early.
   */
  contextTokens: z.number().int().min(1024).optional(),
});
/** The context window assumed for a catalog entry without `contextTokens`. */
export const DEFAULT_CONTEXT_TOKENS = 32_768;
export type ModelEntry = z.infer<typeof ModelEntrySchema>;

export const ConfiguredMcpServerSchema = z.object({
  transport: z.enum(['stdio', 'http']),
  command: z.string().optional(),
  args: z.array(z.string()).default([]),
  /**
   * Environment of a stdio server. Secret values are written as `${NAME}` references, resolved
   * by the MCP pool when it starts the server (src/mcp-client/pool.ts), never stored.
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

/**
 * The model of `model: default` when the configuration names none: the echo script shipped in
 * deputy's own `agents/scripts/`, read from the package only (a workspace file of the same name
 * must not become the model of every agent).
 */
export const BUILTIN_DEFAULT_MODEL = 'scripted:agents/scripts/echo.yaml';

export const ConfigFileSchema = z
  .object({
    models: z
      .object({
        /** Handle used when a definition says `model: default`. */
        default: z.string().default(BUILTIN_DEFAULT_MODEL),
        catalog: z.record(z.string(), ModelEntrySchema).default({}),
        /** Ecosystem aliases (`sonnet`, `opus`, `haiku`) -> catalog handle. */
        aliases: z.record(z.string(), z.string()).default({}),
        /** Operator override: agent name -> handle, wins over the definition's own choice. */
        overrides: z.record(z.string(), z.string()).default({}),
      })
      .default({
        default: BUILTIN_DEFAULT_MODEL,
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
    /** Default per-MCP-call timeout in seconds; 0 = none. */
    mcpToolTimeoutSeconds: z.number().min(0).default(60),
    /**
     * Wait before the first retry to (re)connect an MCP server, seconds; each further
     * retry waits twice as long (with jitter), up to 30 s (or this, if longer), and a good
     * connection starts over (src/mcp-client/reconnect-backoff.ts).
     */
    mcpReconnectSeconds: z.number().positive().default(0.25),
    /**
     * The variable holding deputy's own bearer token, sent only to http MCP servers that opt in
     * with `auth: bearer`.
     */
    mcpBearerTokenEnv: z.string().default('DEPUTY_MCP_TOKEN'),
    /**
     * Worker tuning (src/config/worker-tuning.ts): cache size, concurrency, shutdown grace. Each key is
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
     * The sandbox of definitions that declare none (the same `off`, `on` or bounds); absent:
     * off. Paths are relative to the workspace or absolute.
     */
    sandbox: SandboxDeclarationSchema.optional(),
    /** Signed one-tap approve/deny links (src/config/links-schema.ts); off without a key. */
    links: LinksConfigSchema.optional(),
    /** How often a schedule may run, per role (src/config/schedules-schema.ts). */
    schedules: SchedulesConfigSchema.default({
      minInterval: DEFAULT_SCHEDULE_MIN_INTERVAL,
      minIntervalByRole: {},
    }),
    /**
     * What the servers of `.mcp.json` (a file agents can write) may reference: `variables` maps a
     * server's name to the environment variables its `${NAME}` references may name. A reference
     * to any other variable keeps the server from starting (src/mcp-client/start-gate.ts).
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
     * Prometheus metrics (src/metrics/): off by default. `enabled` (env DEPUTY_METRICS) serves
     * `GET /metrics` on the API, behind its auth; `workerAddress` (env
     * DEPUTY_WORKER_METRICS_ADDRESS) a worker's own endpoint; `temporalAddress` (env
     * DEPUTY_TEMPORAL_METRICS_ADDRESS) the Temporal SDK's exporter. Addresses are read at start.
     */
    metrics: z
      .object({
        enabled: z.boolean().default(false),
        workerAddress: z.string().min(1).optional(),
        temporalAddress: z.string().min(1).optional(),
      })
      .strict()
      .default({ enabled: false }),
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
  /** Per-user definitions and skills (the `user` level). */
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
