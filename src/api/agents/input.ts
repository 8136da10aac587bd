/**
 * A create or update body turned into what the registry writes. Four things happen
 * here and nowhere else:
 *
 * - `mcpServers` in qwen-code's record form becomes deputy's list;
 * - `runConfig.max_turns` and `maxTurns` are kept in step (maxTurns wins at run time, so a
 *   disagreement would be a silent no-op: it is refused);
 * - every `__redacted__` placeholder is put back from the stored agent (edit) or the workspace
 *   settings (create). One that cannot be restored refuses the save: the placeholder is never
 *   written, and a secret is never lost by a GET -> edit -> POST round trip;
 * - an update's field equal to what the detail shows is no change (editors send whole forms).
 */
import type { ConfiguredMcpServer } from '../../config/schema.js';
import type { InlineMcpServer, LoadedDefinition } from '../../definitions/definition.js';
import { mapClaudeMcpServer } from '../../definitions/ecosystem.js';
import { invalidDefinition, type Issue } from '../../errors.js';
import { REDACTED } from '../../shared/redact.js';
import { clip } from '../../shared/clip.js';
import type { CreateAgentBody, UpdateAgentBody } from './schemas.js';
import { SCOPE_LEVELS } from './schemas.js';
import { agentSummary } from './view.js';

type Values = Record<string, unknown>;

/** What the stored side looks like, raw and as the API showed it, for placeholder restoring. */
export interface StoredAgent {
  /** The definition as the registry holds it; null on create. */
  loaded: LoadedDefinition | null;
  /** The same, as the detail route answered it (masked): what a client echoes back. */
  view: { systemPrompt: string; description: string } | null;
  /** The workspace's configured MCP servers, by name (create restores from these). */
  workspaceServers: Readonly<Record<string, ConfiguredMcpServer>>;
  /** The configured-secret masker the routes answer through. */
  mask: <T>(value: T) => T;
}

export function createLevel(body: Pick<CreateAgentBody, 'scope' | 'level'>): 'project' | 'user' {
  const fromScope = body.scope === undefined ? undefined : SCOPE_LEVELS[body.scope];
  if (fromScope !== undefined && body.level !== undefined && fromScope !== body.level) {
    throw invalidDefinition([
      {
        path: 'scope',
        message: `scope '${body.scope}' means the ${fromScope} level, but level says '${body.level}'`,
      },
    ]);
  }
  return fromScope ?? body.level ?? 'project';
}

/** Frontmatter and body of a new definition. */
export function createInput(
  body: CreateAgentBody,
  stored: StoredAgent,
): { frontmatter: Values; systemPrompt: string } {
  const { systemPrompt, ...rest } = body;
  // Where the file goes is the route's business (createLevel); the rest is the definition.
  const fields: Values = { ...rest };
  delete fields.scope;
  delete fields.level;
  const issues: Issue[] = [];
  const frontmatter = frontmatterFields(fields, issues);
  checkTurns(body.maxTurns, body.runConfig?.max_turns, issues);
  restore(frontmatter, stored, issues);
  refuseLeftoverPlaceholders({ ...frontmatter, systemPrompt }, issues);
  if (issues.length > 0) throw invalidDefinition(issues);
  return { frontmatter, systemPrompt };
}

/** The changes to apply and, when sent, the new body. */
export function updateInput(
  body: UpdateAgentBody,
  stored: StoredAgent,
): { changes: Values; systemPrompt?: string } {
  const { systemPrompt: sentPrompt, ...fields } = body;
  const issues: Issue[] = [];
  if (Object.keys(body).length === 0) {
    throw invalidDefinition([{ path: '', message: 'the update names no field' }]);
  }
  const changes = frontmatterFields(fields, issues);
  const runConfigTurns = fields.runConfig?.max_turns;
  checkTurns(fields.maxTurns ?? undefined, runConfigTurns, issues);
  // One limit, however it is spelled: write-back updates every spelling the file already has.
  if (runConfigTurns !== undefined && fields.maxTurns === undefined) {
    changes.maxTurns = runConfigTurns;
  }
  restore(changes, stored, issues);
  let systemPrompt = sentPrompt;
  if (systemPrompt !== undefined && systemPrompt.includes(REDACTED)) {
    // The masker may have cut a secret-looking part out of the prompt the client saw.
    if (stored.view !== null && systemPrompt === stored.view.systemPrompt) {
      systemPrompt = stored.loaded?.definition.systemPrompt ?? systemPrompt;
    }
  }
  if (
    typeof changes.description === 'string' &&
    stored.view !== null &&
    changes.description === stored.view.description
  ) {
    changes.description = stored.loaded?.definition.description ?? changes.description;
  }
  refuseLeftoverPlaceholders(
    { ...changes, ...(systemPrompt === undefined ? {} : { systemPrompt }) },
    issues,
  );
  if (issues.length > 0) throw invalidDefinition(issues);
  if (stored.loaded !== null) dropEchoes(changes, stored.loaded);
  return { changes, ...(systemPrompt === undefined ? {} : { systemPrompt }) };
}

/**
 * An editor sends back the whole form, defaults included (`model: default`, the default color):
 * a field equal to what the detail shows for the stored definition is not a change, so it is not
 * written into a file that never spelled it.
 */
function dropEchoes(changes: Values, loaded: LoadedDefinition): void {
  const { definition } = loaded;
  const shown: Values = {
    ...agentSummary(loaded, true),
    hooks: definition.hooks,
    mcpServers: definition.mcpServers,
  };
  for (const key of Object.keys(changes)) {
    if (Object.hasOwn(shown, key) && canonical(changes[key]) === canonical(shown[key])) {
      delete changes[key];
    }
  }
}

/** JSON with object keys sorted: equal for equal values whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, (inner as Values)[key]]),
        )
      : inner,
  );
}

/** The body's fields in the file's spelling: `mcpServers` as deputy's list. */
function frontmatterFields(fields: Values, issues: Issue[]): Values {
  const out: Values = Object.create(null) as Values;
  for (const key of Object.keys(fields)) {
    if (fields[key] === undefined) continue;
    out[key] = key === 'mcpServers' ? mcpServerList(fields[key], issues) : fields[key];
  }
  return { ...out };
}

/**
 * `{name: {}}` names a configured server; `{name: {transport|type, ...}}` is an inline one, read
 * the way Claude Code files are (`type`, `url`, `timeout` in ms). A list passes as it is; the
 * definition schema checks every entry next.
 */
function mcpServerList(value: unknown, issues: Issue[]): unknown {
  if (value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.keys(record).map((name) => {
    const server = record[name];
    if (server !== null && typeof server === 'object' && Object.keys(server).length === 0) {
      return name;
    }
    const mapped = mapClaudeMcpServer(name, server);
    if (mapped === undefined) {
      issues.push({ path: `mcpServers.${name}`, message: 'must be an object (a server)' });
      return name;
    }
    return { ...mapped };
  });
}

function checkTurns(
  maxTurns: number | null | undefined,
  runConfigTurns: number | undefined,
  issues: Issue[],
): void {
  if (typeof maxTurns === 'number' && runConfigTurns !== undefined && maxTurns !== runConfigTurns) {
    issues.push({
      path: 'runConfig.max_turns',
      message: `disagrees with maxTurns (${maxTurns}), which wins; send one of them`,
    });
  }
}

/**
 * Puts stored values back where the client echoed a redacted one: in each inline MCP server, a
 * string that equals what the API showed for the stored server of the same name (the stored
 * agent's first, then the workspace configuration's) is replaced by the stored value. An env
 * value, header or OAuth client secret sent as `__redacted__` with nothing stored is refused.
 */
function restore(fields: Values, stored: StoredAgent, issues: Issue[]): void {
  const servers = fields.mcpServers;
  if (!Array.isArray(servers)) return;
  const agentServers = new Map<string, InlineMcpServer>();
  for (const entry of stored.loaded?.definition.mcpServers ?? []) {
    if (typeof entry !== 'string') agentServers.set(entry.name, entry);
  }
  fields.mcpServers = servers.map((entry: unknown, index) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
    const name = (entry as Values).name;
    const sources: Values[] = [];
    const fromAgent = typeof name === 'string' ? agentServers.get(name) : undefined;
    if (fromAgent !== undefined) sources.push(fromAgent as unknown as Values);
    if (typeof name === 'string' && Object.hasOwn(stored.workspaceServers, name)) {
      sources.push(stored.workspaceServers[name] as unknown as Values);
    }
    return restoreLeaves(entry, sources, stored.mask, `mcpServers.${index}`, issues);
  });
}

/**
 * Deeper than any definition field nests (an env value is three levels below its server). The
 * `mcpServers` input is any JSON until the definition schema checks it, after these walks: without
 * a bound, a 1 MiB body nested 100,000 deep overflows the stack (a 500 instead of a 422).
 */
const MAX_NESTING = 32;

/** `sent` with each placeholder-bearing string swapped for the first source whose view matches. */
function restoreLeaves(
  sent: unknown,
  sources: readonly unknown[],
  mask: StoredAgent['mask'],
  path: string,
  issues: Issue[],
  depth = 0,
): unknown {
  // Left as sent: refuseLeftoverPlaceholders refuses what is nested this deep.
  if (depth > MAX_NESTING) return sent;
  if (typeof sent === 'string') {
    if (!sent.includes(REDACTED)) return sent;
    for (const source of sources) {
      if (typeof source === 'string' && mask(source) === sent) return source;
      // env values, headers and the client secret are shown as the bare placeholder.
      if (typeof source === 'string' && sent === REDACTED && isSecretLeaf(path)) return source;
    }
    issues.push(unrestorable(path));
    return sent;
  }
  if (sent === null || typeof sent !== 'object') return sent;
  const child = (key: string | number) =>
    sources.map((source) =>
      source !== null && typeof source === 'object'
        ? (source as Record<string, unknown>)[String(key)]
        : undefined,
    );
  if (Array.isArray(sent)) {
    return sent.map((item, index) =>
      restoreLeaves(item, child(index), mask, `${path}.${index}`, issues, depth + 1),
    );
  }
  const out: Values = {};
  for (const key of Object.keys(sent)) {
    Object.defineProperty(out, key, {
      value: restoreLeaves(
        (sent as Values)[key],
        child(key),
        mask,
        `${path}.${key}`,
        issues,
        depth + 1,
      ),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Where the detail shows `__redacted__` whatever the value (src/api/agents/view.ts). */
function isSecretLeaf(path: string): boolean {
  return /\.(env|headers)\.[^.]+$/.test(path) || path.endsWith('.oauth.clientSecret');
}

function unrestorable(path: string): Issue {
  return {
    path,
    message: `'${REDACTED}' stands for a stored value, but there is none to restore here; send the real value`,
  };
}

/** Whatever is left after restoring must not contain the placeholder: it would be written. */
function refuseLeftoverPlaceholders(value: unknown, issues: Issue[], path = '', depth = 0): void {
  if (depth > MAX_NESTING) {
    issues.push({ path: clip(path, 100), message: `nested deeper than ${MAX_NESTING} levels` });
    return;
  }
  if (typeof value === 'string') {
    if (value.includes(REDACTED) && !issues.some((issue) => issue.path === path)) {
      issues.push({
        path,
        message: `contains '${REDACTED}', a placeholder for a value the API does not show; send the real value or leave the field out`,
      });
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    refuseLeftoverPlaceholders(inner, issues, path === '' ? key : `${path}.${key}`, depth + 1);
  }
}

/** The stored agent's detail as a client saw it, for telling an echo from a new value. */
export function storedView(
  loaded: LoadedDefinition,
  mask: StoredAgent['mask'],
): NonNullable<StoredAgent['view']> {
  const { systemPrompt, description } = loaded.definition;
  return mask({ systemPrompt, description });
}
