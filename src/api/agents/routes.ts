/**
 * Agent authoring routes, shaped like qwen-code's daemon workspace-agents API
 * so its SDK manages deputy's agents unchanged. Reading the list needs any caller; everything
 * else (detail, revisions, create, update, delete, restore, duplicate) needs the admin role when
 * auth is on. Every write goes through the registry, which validates strictly before it
 * writes and reloads before it returns: the next delegation uses the change.
 */
import type { Context, Hono } from 'hono';
import { discoverSkills, type SkillDiscovery } from '../../capabilities/skill-discovery.js';
import type { DefinitionRegistry } from '../../definitions/registry/registry.js';
import type { LoadedDefinition } from '../../definitions/definition.js';
import type { WritableLevel } from '../../definitions/levels.js';
import { isValidName } from '../../definitions/names.js';
import { DeputyError, agentNotFound } from '../../errors.js';
import type { ConfigProblem, LiveConfig } from '../../config/live-config.js';
import type { SecretMasker } from '../../secrets/masker.js';
import type { Caller } from '../../shared/caller.js';
import type { DefinitionLevel } from '../../shared/capability-snapshot.js';
import type { Diagnostic } from '../../shared/diagnostics.js';
import type { AppEnv } from '../http/app-env.js';
import { createInput, createLevel, storedView, updateInput, type StoredAgent } from './input.js';
import {
  AgentLevelQuerySchema,
  CreateAgentBodySchema,
  DuplicateAgentBodySchema,
  SCOPE_LEVELS,
  UpdateAgentBodySchema,
} from './schemas.js';
import { delegateTargetsOf, resolvedDiagnostics } from './resolution.js';
import { agentDetail, agentSummary } from './view.js';
import { revisionText } from './revision-text.js';
import { clip } from '../../shared/clip.js';
import { requireAdmin } from '../../rights/rights.js';
import { parseBody, parseQuery } from '../http/validation.js';

export interface AgentRouteDeps {
  /** Absent: a server without definitions (some tests); every agent route answers 503. */
  definitions?: DefinitionRegistry;
  settings: LiveConfig;
  secrets: SecretMasker;
}

/** How long a built list answer is reused at most (a new SKILL.md shows within this). */
const LIST_LIFETIME_MS = 2000;
/** A revision id as the store names them (revisions.ts): anything else is no revision. */
const REVISION_ID = /^[0-9TZ]{19}-[0-9a-f]{8}$/;

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per route, each short.
export function registerAgentRoutes(app: Hono<AppEnv>, deps: AgentRouteDeps): void {
  const { settings, secrets } = deps;
  const registry = (): DefinitionRegistry => {
    if (deps.definitions === undefined) {
      throw new DeputyError('unavailable', 'this server was started without agent definitions');
    }
    return deps.definitions;
  };

  const isEffective = (loaded: LoadedDefinition): boolean =>
    registry().get(loaded.definition.name) === loaded;

  const diagnosticsFor = (
    loaded: LoadedDefinition,
    caller: Caller,
    skills?: SkillDiscovery,
  ): Diagnostic[] =>
    resolvedDiagnostics(loaded, {
      config: settings.current(),
      caller,
      agents: () => delegateTargetsOf(registry()),
      ...(skills === undefined ? {} : { skills }),
    });

  async function detail(loaded: LoadedDefinition, caller: Caller) {
    const revisions = await registry().revisions(loaded.definition.name);
    return secrets.value(
      agentDetail(loaded, isEffective(loaded), revisions, diagnosticsFor(loaded, caller)),
    );
  }

  function stored(loaded: LoadedDefinition | null): StoredAgent {
    return {
      loaded,
      view: loaded === null ? null : storedView(loaded, secrets.value),
      workspaceServers: settings.current().mcpServers,
      mask: secrets.value,
    };
  }

  // The list is what editors and dashboards poll. Building it (every summary with its resolution
  // for the caller's roles, then the masker's deep copy) costs a few ms for 200 agents; it changes
  // when the registry reloads, the configuration (its masker, its problem) changes, the caller's
  // roles differ, or a skill appears on disk (no event says so: hence the short lifetime).
  let listed: {
    generation: number;
    config: object;
    problem: ConfigProblem | null;
    roles: string;
    at: number;
    body: string;
  } | null = null;
  app.get('/workspace/agents', (c) => {
    const generation = registry().generation();
    const config = settings.current();
    const problem = settings.problem();
    const caller = c.get('caller');
    const roles = caller.id === null ? '' : JSON.stringify([...caller.roles].sort());
    if (
      listed === null ||
      listed.generation !== generation ||
      listed.config !== config ||
      listed.problem?.message !== problem?.message ||
      listed.roles !== roles ||
      Date.now() - listed.at > LIST_LIFETIME_MS
    ) {
      const skills = discoverSkills(config);
      const agents = registry()
        .listAll()
        .map((loaded) =>
          agentSummary(loaded, isEffective(loaded), diagnosticsFor(loaded, caller, skills)),
        );
      // A broken `.mcp.json` is said beside the configuration: its servers are off meanwhile.
      const errors = [
        ...(problem === null
          ? []
          : [{ kind: 'config', status: 'error' as const, error: problem.message }]),
        ...(config.mcpJsonProblem === null
          ? []
          : [{ kind: '.mcp.json', status: 'error' as const, error: config.mcpJsonProblem }]),
      ];
      const body = secrets.value({
        v: 1 as const,
        workspaceCwd: config.workspace,
        agents,
        ...(errors.length === 0 ? {} : { errors }),
      });
      listed = { generation, config, problem, roles, at: Date.now(), body: JSON.stringify(body) };
    }
    return c.body(listed.body, 200, { 'content-type': 'application/json' });
  });

  app.post('/workspace/agents', async (c) => {
    requireAdmin(c.get('caller'), 'creating an agent');
    const body = await parseBody(c, CreateAgentBodySchema, 'invalid_config');
    const level = createLevel(body);
    const { frontmatter, systemPrompt } = createInput(body, stored(null));
    const created = await registry().create(level, frontmatter, systemPrompt);
    return c.json({ ok: true as const, agent: await detail(created, c.get('caller')) }, 201);
  });

  app.get('/workspace/agents/:name', async (c) => {
    requireAdmin(c.get('caller'), 'reading an agent in full');
    return c.json(await detail(found(c), c.get('caller')));
  });

  const update = async (c: Context<AppEnv>) => {
    requireAdmin(c.get('caller'), 'changing an agent');
    const current = found(c, 'writable');
    const body = await parseBody(c, UpdateAgentBodySchema, 'invalid_config');
    const { changes, systemPrompt } = updateInput(body, stored(current));
    const edited = await registry().update(current.definition.name, changes, {
      level: current.level as WritableLevel,
      ...(systemPrompt === undefined ? {} : { body: systemPrompt }),
    });
    return c.json({
      ok: true as const,
      agent: await detail(edited.loaded, c.get('caller')),
      changed: edited.changed,
    });
  };
  app.post('/workspace/agents/:name', update);
  app.patch('/workspace/agents/:name', update);

  app.delete('/workspace/agents/:name', async (c) => {
    requireAdmin(c.get('caller'), 'deleting an agent');
    const current = found(c, 'writable');
    await registry().delete(current.definition.name, { level: current.level as WritableLevel });
    return c.body(null, 204);
  });

  app.get('/workspace/agents/:name/revisions', async (c) => {
    requireAdmin(c.get('caller'), 'reading revisions');
    const name = nameParam(c);
    const revisions = await registry().revisions(name);
    // A deleted agent keeps its revisions: only a name with neither is unknown.
    if (revisions.length === 0 && registry().get(name) === undefined) {
      throw agentNotFound(`no agent named '${name}'`);
    }
    return c.json({ name, revisions });
  });

  app.get('/workspace/agents/:name/revisions/:rev', async (c) => {
    requireAdmin(c.get('caller'), 'reading revisions');
    const name = nameParam(c);
    const id = c.req.param('rev');
    const revision = REVISION_ID.test(id) ? await registry().revision(name, id) : undefined;
    if (revision === undefined) {
      throw new DeputyError('not-found', `'${name}' has no revision '${clip(id, 40)}'`);
    }
    const current = registry().get(name, revision.info.level);
    return c.json(secrets.value(await revisionText(revision, current?.filePath)));
  });

  app.post('/workspace/agents/:name/revisions/:rev/restore', async (c) => {
    requireAdmin(c.get('caller'), 'restoring a revision');
    const name = nameParam(c);
    const revision = c.req.param('rev');
    if (!REVISION_ID.test(revision)) {
      throw new DeputyError('not-found', `'${name}' has no revision '${clip(revision, 40)}'`);
    }
    const restored = await registry().restore(name, revision);
    return c.json({ ok: true as const, agent: await detail(restored, c.get('caller')) });
  });

  app.post('/workspace/agents/:name/duplicate', async (c) => {
    requireAdmin(c.get('caller'), 'duplicating an agent');
    const source = found(c);
    const body = await parseBody(c, DuplicateAgentBodySchema, 'invalid_config');
    const level = body.scope === undefined && body.level === undefined ? 'user' : createLevel(body);
    const copy = await registry().duplicate(source.definition.name, {
      newName: body.name,
      level,
      sourceLevel: source.level,
    });
    return c.json({ ok: true as const, agent: await detail(copy, c.get('caller')) }, 201);
  });

  /** The definition the path names, at `?scope=`/`?level=` when given. */
  function found(c: Context<AppEnv>, purpose: 'any' | 'writable' = 'any'): LoadedDefinition {
    const name = nameParam(c);
    const level = levelQuery(c);
    const loaded = registry().get(name, level);
    if (loaded === undefined) {
      throw agentNotFound(
        level === undefined
          ? `no agent named '${name}'`
          : `no agent named '${name}' at the ${level} level`,
      );
    }
    if (purpose === 'writable' && loaded.readOnly) {
      throw new DeputyError(
        'read-only',
        loaded.level === 'builtin'
          ? `'${name}' is a built-in agent and cannot be changed or deleted; duplicate it to customise it`
          : `'${name}' is read from ${loaded.filePath} (${loaded.level}) and is read-only through deputy; edit that file itself`,
      );
    }
    return loaded;
  }
}

/** The name rule first (seed 004): anything else is unknown, and is never echoed whole. */
function nameParam(c: Context<AppEnv>): string {
  const name = c.req.param('name') ?? '';
  if (!isValidName(name)) {
    throw agentNotFound(`no agent named '${clip(name, 64)}': names match ^[a-z0-9][a-z0-9-]*$`);
  }
  return name;
}

function levelQuery(c: Context<AppEnv>): DefinitionLevel | undefined {
  const query = parseQuery(c, AgentLevelQuerySchema);
  const fromScope = query.scope === undefined ? undefined : SCOPE_LEVELS[query.scope];
  if (fromScope !== undefined && query.level !== undefined && fromScope !== query.level) {
    throw new DeputyError('invalid', `scope '${query.scope}' and level '${query.level}' disagree`);
  }
  return fromScope ?? query.level;
}
