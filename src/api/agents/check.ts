/**
 * The agent editor's live check (`POST /workspace/agents/check`): what a save would say, and
 * what a delegation would get, without writing or starting anything.
 *
 * 1. Strict: the fields go through the create route's own path (CreateAgentBodySchema,
 *    createInput, then the registry's validateForSave and model check), so `valid` is true
 *    exactly when a save would be accepted. Each refusal is an error diagnostic `save.invalid`.
 * 2. Tolerant: the file is read by parseDefinition, the registry's parser (a `source` as it is;
 *    `agent` fields as the file a create would write), giving the agent as the detail route
 *    shows it and its load diagnostics.
 * 3. Resolution (resolution.ts), as the agents list and detail show it: unknown tools,
 *    missing skills, undeclared MCP servers, knowledge problems, for the caller's roles.
 *
 * For a `source`, each diagnostic carries the line its path names (source-lines.ts).
 */
import { join } from 'node:path';
import type { DeputyConfig } from '../../config/schema.js';
import type { LoadedDefinition } from '../../definitions/definition.js';
import { splitFrontmatter } from '../../definitions/read/frontmatter.js';
import { levelRank, writableDirectory, type WritableLevel } from '../../definitions/levels.js';
import { modelProblem } from '../../definitions/model-check.js';
import { isValidName } from '../../definitions/names.js';
import { parseDefinition } from '../../definitions/read/parse.js';
import type { DefinitionRegistry } from '../../definitions/registry/registry.js';
import { sha256 } from '../../definitions/registry/revisions.js';
import { toIssues, validateForSave } from '../../definitions/schema.js';
import { serializeNewDefinition } from '../../definitions/registry/write-back.js';
import { readFrontmatterYaml } from '../../definitions/read/yaml-memo.js';
import { isDeputyError, type Issue } from '../../errors.js';
import { builtinModelHandle } from '../../models/builtin-models.js';
import { scanConfigSecrets } from '../../config/config-secrets.js';
import { secretMaskerFor, type SecretMasker } from '../../secrets/masker.js';
import type { Caller } from '../../shared/caller.js';
import type { Diagnostic } from '../../shared/diagnostics.js';
import { createInput, createLevel, storedView, type StoredAgent } from './input.js';
import { delegateTargetsOf, resolvedDiagnostics } from './resolution.js';
import { CreateAgentBodySchema } from './schemas.js';
import { agentDetail } from './view.js';
import type { AgentCheck, CheckAgentBody, CheckDiagnostic } from './check-schemas.js';
import { clip } from '../../shared/clip.js';
import { sourceLines, type LineOf } from './source-lines.js';

export interface CheckContext {
  /** The configuration as it is now (`settings.current()`). */
  config: DeputyConfig;
  caller: Caller;
  /** Built-in names are refused and a stored agent's secrets restored from it; absent: neither. */
  definitions?: Pick<DefinitionRegistry, 'get' | 'list'> | undefined;
  /** The app's configured-secret masker. */
  secrets: SecretMasker;
  /** Where API keys and `${NAME}` references are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** More diagnostics than this are cut, and the last one says how many more there were. */
export const MAX_CHECK_DIAGNOSTICS = 500;
/** Messages and paths quote the input (a tool name, a key), which can be as long as the body. */
const MAX_MESSAGE_CHARS = 500;
const MAX_PATH_CHARS = 200;

/** Keys of a create body that say where or what the file is, not what its frontmatter holds. */
const NOT_FRONTMATTER: Record<string, string> = {
  systemPrompt: 'the system prompt is the body after the closing ---, not a frontmatter field',
  scope: "'scope' says where a save puts the file, not a frontmatter field: send it as `level`",
  level: "'level' says where a save puts the file, not a frontmatter field: send it as `level`",
};

type Values = Record<string, unknown>;

/** What the strict pass found, and the fields a create would write (when it got that far). */
interface Strict {
  level: WritableLevel;
  /** False when no save can even be tried: the frontmatter cannot be read. */
  readable: boolean;
  refusals: Diagnostic[];
  written?: { frontmatter: Values; systemPrompt: string };
}

export function checkAgent(body: CheckAgentBody, context: CheckContext): AgentCheck {
  const env = context.env ?? process.env;
  const { config } = context;
  let text: string;
  let strict: Strict;
  let raw: Values;
  let lineOf: LineOf | undefined;
  if (body.source !== undefined) {
    const read = frontmatterValues(body.source);
    raw = read.values ?? {};
    strict =
      read.values === undefined
        ? { level: body.level ?? 'user', readable: false, refusals: [] }
        : strictCheck({ ...read.values, systemPrompt: read.body }, body.level, context, env, {
            refusals: read.refusals,
          });
    text = body.source;
  } else {
    raw = body.agent ?? {};
    strict = strictCheck(raw, body.level, context, env, { refusals: [] });
    text =
      strict.written === undefined
        ? fileOfFields(raw)
        : serializeNewDefinition(strict.written.frontmatter, strict.written.systemPrompt);
  }

  const { level } = strict;
  const named = typeof raw.name === 'string' && isValidName(raw.name) ? raw.name : 'unnamed';
  const parsed = parseDefinition(text, {
    fileName: `${named}.md`,
    level,
    aliases: config.models.aliases,
    builtinModel: (name) => builtinModelHandle(name, config.models.catalog, env),
  });
  if (body.source !== undefined) lineOf = sourceLines(body.source, parsed.diagnostics);
  const { definition } = parsed;
  const loaded: LoadedDefinition = {
    definition,
    level,
    readOnly: false,
    filePath: join(writableDirectory(config, level), `${definition.name}.md`),
    contentHash: sha256(text),
    diagnostics: parsed.diagnostics,
  };
  const resolved = resolvedDiagnostics(loaded, {
    config,
    caller: context.caller,
    env,
    agents: () => delegateTargetsOf(context.definitions),
  });

  const diagnostics = answered(
    [...resolved, ...strict.refusals, ...nameNotes(definition.name, level, context)],
    lineOf,
  );
  const current = context.definitions?.get(definition.name);
  const effective = current === undefined || levelRank(current.level) >= levelRank(level);
  const answer: AgentCheck = {
    v: 1,
    valid: strict.readable && strict.refusals.length === 0,
    agent: agentDetail(loaded, effective, []),
    diagnostics,
  };
  // The detail shows inline servers' env values, headers and client secrets as `__redacted__`;
  // a secret-looking value quoted anywhere else (a message, the prompt) is masked too, with the
  // configuration's secrets and those this definition writes itself.
  const own = scanConfigSecrets({ mcpServers: [definition.mcpServers, raw.mcpServers] }).secrets;
  return context.secrets.value(
    secretMaskerFor({ secrets: own, models: { catalog: {} } }, env).value(answer),
  );
}

/** The frontmatter's values as the registry reads them, and the body; undefined: unreadable. */
function frontmatterValues(source: string): {
  values: Values | undefined;
  body: string;
  refusals: Diagnostic[];
} {
  const split = splitFrontmatter(source);
  if (split.unclosed) return { values: undefined, body: split.body, refusals: [] };
  if (!split.hasFrontmatter) return { values: {}, body: split.body, refusals: [] };
  const read = readFrontmatterYaml(split.yaml);
  if (read.values === undefined) return { values: undefined, body: split.body, refusals: [] };
  // Own properties, defined as they are: a `__proto__` key stays a key (refused as unknown).
  const values: Values = { ...read.values };
  const refusals: Diagnostic[] = [];
  for (const key of Object.keys(NOT_FRONTMATTER)) {
    if (!Object.hasOwn(values, key)) continue;
    refusals.push(refusal(key, NOT_FRONTMATTER[key]!));
    delete values[key];
  }
  return { values, body: split.body, refusals };
}

/** The create route's checks, in its order; every refusal becomes a diagnostic. */
function strictCheck(
  fields: Values,
  requestedLevel: WritableLevel | undefined,
  context: CheckContext,
  env: NodeJS.ProcessEnv,
  start: { refusals: Diagnostic[] },
): Strict {
  const refusals = [...start.refusals];
  const body = CreateAgentBodySchema.safeParse(fields);
  if (!body.success) {
    refusals.push(...toIssues(body.error).map((issue) => refusal(issue.path, issue.message)));
    return { level: requestedLevel ?? 'user', readable: true, refusals };
  }
  let level: WritableLevel = requestedLevel ?? 'user';
  if (
    requestedLevel === undefined &&
    (body.data.scope !== undefined || body.data.level !== undefined)
  ) {
    const chosen = caught(() => createLevel(body.data), refusals);
    if (chosen !== undefined) level = chosen;
  }
  const input = caught(
    () => createInput(body.data, stored(body.data.name, level, context)),
    refusals,
  );
  if (input === undefined) return { level, readable: true, refusals };
  const saved = validateForSave(input.frontmatter);
  if (!saved.ok) {
    refusals.push(...saved.issues.map((issue) => refusal(issue.path, issue.message)));
  } else {
    const model = saved.value.model;
    const problem = modelProblem(
      typeof model === 'string' ? model : 'default',
      context.config.models,
      env,
    );
    if (problem !== null) refusals.push(refusal('model', problem));
  }
  const name = body.data.name;
  if (context.definitions?.get(name, 'builtin') !== undefined) {
    refusals.push({
      severity: 'error',
      path: 'name',
      code: 'name.reserved',
      message: `'${name}' is a built-in agent name; built-in agents cannot be overridden, choose a different name (a save answers 409 agent_name_reserved)`,
    });
  }
  return { level, readable: true, refusals, written: input };
}

/**
 * What `__redacted__` values are restored from: the agent saved under this name at this level
 * (an editor checks what GET answered), else the workspace's servers, as on create.
 */
function stored(name: string, level: WritableLevel, context: CheckContext): StoredAgent {
  const existing = context.definitions?.get(name, level);
  const loaded = existing === undefined || existing.readOnly ? null : existing;
  return {
    loaded,
    view: loaded === null ? null : storedView(loaded, context.secrets.value),
    workspaceServers: context.config.mcpServers,
    mask: context.secrets.value,
  };
}

/** A name already taken at the level: a create is refused (409) there, an update is not. */
function nameNotes(name: string, level: WritableLevel, context: CheckContext): Diagnostic[] {
  const existing = context.definitions?.get(name, level);
  if (existing === undefined) return [];
  return [
    {
      severity: 'info',
      path: 'name',
      code: 'name.exists',
      message: `an agent named '${name}' already exists at the ${level} level: saving updates it (creating another is refused with 409 agent_already_exists)`,
    },
  ];
}

/** Fields that failed the create body's schema, as a file, so the registry's parser can read them. */
function fileOfFields(fields: Values): string {
  const frontmatter: Values = {};
  for (const key of Object.keys(fields)) {
    if (Object.hasOwn(NOT_FRONTMATTER, key)) continue;
    Object.defineProperty(frontmatter, key, {
      value: fields[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const body = typeof fields.systemPrompt === 'string' ? fields.systemPrompt : '';
  return serializeNewDefinition(frontmatter, body);
}

/** The value, or undefined after turning the validation error it threw into refusals. */
function caught<T>(run: () => T, refusals: Diagnostic[]): T | undefined {
  try {
    return run();
  } catch (error) {
    if (!isDeputyError(error, 'invalid')) throw error;
    const issues: Issue[] =
      error.issues.length > 0 ? error.issues : [{ path: '', message: error.message }];
    refusals.push(...issues.map((issue) => refusal(issue.path, issue.message)));
    return undefined;
  }
}

function refusal(path: string, message: string): Diagnostic {
  return { severity: 'error', path, code: 'save.invalid', message };
}

/** Deduplicated (path, code, message), clipped, with lines, at most MAX_CHECK_DIAGNOSTICS. */
function answered(
  diagnostics: readonly Diagnostic[],
  lineOf: LineOf | undefined,
): CheckDiagnostic[] {
  const seen = new Set<string>();
  const unique = diagnostics.filter((diagnostic) => {
    const key = `${diagnostic.path}\0${diagnostic.code}\0${diagnostic.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const shown =
    unique.length <= MAX_CHECK_DIAGNOSTICS ? unique : unique.slice(0, MAX_CHECK_DIAGNOSTICS - 1);
  const out: CheckDiagnostic[] = shown.map((diagnostic) => {
    const line = lineOf?.(diagnostic);
    return {
      severity: diagnostic.severity,
      path: clip(diagnostic.path, MAX_PATH_CHARS),
      code: diagnostic.code,
      message: clip(diagnostic.message, MAX_MESSAGE_CHARS),
      ...(line === undefined ? {} : { line }),
    };
  });
  if (shown.length < unique.length) {
    out.push({
      severity: 'info',
      path: '',
      code: 'diagnostics.truncated',
      message: `${unique.length - shown.length} more diagnostics are not shown (at most ${MAX_CHECK_DIAGNOSTICS} are answered); fix these first`,
    });
  }
  return out;
}
