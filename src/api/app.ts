/**
 * The HTTP API as a Hono app, without listen(): tests call `app.request(...)` in-process and
 * src/server.ts puts it on a socket. Routes reach Temporal only through the Delegations facade.
 */
import { Hono } from 'hono';
import type { DeputyConfig } from '../config/schema.js';
import { fixedConfig, type LiveConfig } from '../config/live-config.js';
import { localOperator } from '../local-operator.js';
import { definitionSecretSource } from '../secrets/definition-secrets.js';
import { liveSecretMasker } from '../secrets/live-masker.js';
import type { DefinitionRegistry } from '../definitions/registry/registry.js';
import type { McpRuntime } from '../mcp-client/mcp-runtime.js';
import type { McpHttpEndpoint } from '../mcp-door/http-endpoint.js';
import { registerMcpDoorRoutes } from './mcp/routes.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import type { Sessions } from '../temporal/sessions/facade.js';
import { registerAgentRoutes } from './agents/routes.js';
import type { AppEnv } from './http/app-env.js';
import type { Auth } from './http/auth.js';
import { requestBodyLimit } from './http/body-limit.js';
import { registerCardRoutes } from './cards/routes.js';
import { registerGrantRoutes } from './delegations/grant-routes.js';
import { registerCardLinkMinting, registerCardLinkPages } from './cards/link-routes.js';
import { registerCatalogRoutes } from './workspace/catalog-routes.js';
import { registerCheckRoutes } from './agents/check-routes.js';
import { clip } from '../shared/clip.js';
import {
  consolePublicPaths,
  readConsoleFiles,
  registerConsoleRoutes,
  CONSOLE_DIST,
  type ConsoleOptions,
} from './console-routes.js';
import { registerDelegationRoutes } from './delegations/routes.js';
import { DOCS_PUBLIC_PATHS, registerDocsRoutes } from './openapi/docs-routes.js';
import { assertSameTemporalTarget, isLocalOperatorRequest } from './http/local-caller.js';
import { consoleLogger, errorResponse, type Logger } from './http/errors.js';
import type { EventStreamOptions } from './http/event-stream.js';
import { registerGenerateRoutes } from './generate/routes.js';
import { healthRoute } from './http/health.js';
import { hostGuard } from './http/host-guard.js';
import { jsonBodiesOnly } from './http/json-only.js';
import { liveAuth } from './http/live-auth.js';
import { registerMcpRoutes } from './workspace/mcp-routes.js';
import { registerSessionRoutes } from './sessions/routes.js';
import { registerScheduleRoutes } from './schedules/routes.js';
import type { Schedules } from '../temporal/schedules/types.js';
import { registerWorkspaceRoutes } from './workspace/routes.js';
import { openApiDocument } from './openapi/document.js';
import { registerMetricsRoute } from './metrics/route.js';

export interface AppDeps {
  delegations: Delegations;
  /** Sessions on the same client; without it the session routes answer 503. */
  sessions?: Sessions;
  /** Schedules on the same client; without them the schedule routes answer 503. */
  schedules?: Schedules;
  config: DeputyConfig;
  /**
   * The watched configuration (src/config/watch.ts): maskers, the default auth and `/health`
   * follow it. Default: `config`, fixed.
   */
  settings?: LiveConfig;
  /** Default: bearer tokens from the current `settings`, rebuilt when they change (api/http/live-auth.ts). */
  auth?: Auth;
  logger?: Logger;
  events?: EventStreamOptions;
  /**
   * The definition registry the authoring routes read and write. Without it
   * those routes answer 503. Its names also check delegation starts, unless `agentNames` is given.
   */
  definitions?: DefinitionRegistry;
  /**
   * Names of the agents a delegation may name. When given, starting an unknown agent is a 404
   * at once instead of a delegation that fails in its first activity. Default: `definitions`'.
   */
  agentNames?: () => string[];
  /** Which `Host` names the API answers to (api/http/host-guard.ts). Default: loopback names only. */
  hosts?: HostCheckOptions;
  /**
   * The process's MCP clients, which `GET /workspace/mcp` reports on (the worker's in `deputy
   * dev`: one client per server per process). Without them those routes answer 503.
   */
  mcp?: McpRuntime;
  /** The web console (console-routes.ts): where its build is, the Temporal UI it links to. */
  console?: ConsoleOptions;
  /** The MCP door at `/mcp` (src/mcp-door); without it `/mcp` answers 404. */
  mcpDoor?: McpHttpEndpoint;
}

export interface HostCheckOptions {
  /** Host names answered besides `localhost`, `127.0.0.1` and `[::1]`, normalized. Default []. */
  allowed?: readonly string[];
  /**
   * Check Host and Origin with auth on too. Default false: a bearer token is the guard then, and
   * no browser attaches one by itself. Without auth the check always runs.
   */
  checkWithAuth?: boolean;
}

/** Routes anyone may call: liveness, the API description and its reference page (exact paths). */
const PUBLIC_PATHS = ['/health', '/openapi.json', ...DOCS_PUBLIC_PATHS];
/** Liveness answers under any host name: probes and load balancers use their own. */
const HOST_CHECK_EXEMPT = new Set(['/health']);

// eslint-disable-next-line max-lines-per-function -- the app's guards, then one register* line per area.
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const logger = deps.logger ?? consoleLogger;
  const settings = deps.settings ?? fixedConfig(deps.config);
  const auth = deps.auth ?? liveAuth(settings, { warn: (message) => logger.warn(message) });
  // Answers, events and tasks are masked with the secrets of every configuration seen so far.
  // ... and those written in the definitions' inline MCP servers, which an agent can read back.
  const secrets = liveSecretMasker(
    settings,
    process.env,
    ...(deps.definitions === undefined ? [] : [definitionSecretSource(deps.definitions)]),
  );
  const app = new Hono<AppEnv>();
  const consoleFiles = readConsoleFiles(deps.console?.dist ?? CONSOLE_DIST);
  // ... and the console's page, bundles and settings: the API calls the page makes need a token.
  const publicPaths = new Set([...PUBLIC_PATHS, ...consolePublicPaths(consoleFiles)]);

  app.onError((error, c) => errorResponse(error, c, logger));
  app.notFound((c) =>
    c.json(
      {
        error: 'not_found',
        code: 'not_found',
        message: `no route ${clip(c.req.method, 20)} ${clip(c.req.path, 100)}`,
      },
      404,
    ),
  );

  registerCardLinkPages(app, { ...deps, settings, secrets, logger, auth }); // public: before the guards
  // Order matters: where the request comes from, then who sends it, then what it carries. Each
  // step refuses before the next one reads anything, and all of them before a route calls Temporal.
  // Decided per request: an edit of the configuration may turn auth on or off (api/http/live-auth.ts).
  const guard = hostGuard({
    allowedHosts: deps.hosts?.allowed ?? [],
    openPaths: HOST_CHECK_EXEMPT,
  });
  app.use('*', (c, next) =>
    isLocalOperatorRequest(c) || (auth.enabled && deps.hosts?.checkWithAuth !== true)
      ? next()
      : guard(c, next),
  );
  app.use('*', async (c, next) => {
    if (isLocalOperatorRequest(c)) {
      assertSameTemporalTarget(c, deps.config);
      c.set('caller', localOperator());
    } else if (publicPaths.has(c.req.path)) {
      c.set('caller', { id: null, roles: [] });
    } else {
      c.set('caller', auth.authenticate(c.req.header('Authorization')));
    }
    await next();
  });
  app.use('*', requestBodyLimit());
  app.use('*', jsonBodiesOnly());

  app.get('/health', healthRoute(deps.delegations, { auth, settings }, logger));
  app.get('/openapi.json', (c) => c.json(openApiDocument()));
  registerDocsRoutes(app);
  // Prometheus text (src/metrics/): a 404 while metrics are off, behind auth like any route.
  registerMetricsRoute(app, settings);
  registerConsoleRoutes(app, consoleFiles, {
    ...deps.console,
    namespace: deps.console?.namespace ?? deps.config.temporal.namespace,
    authEnabled: () => auth.enabled,
  });

  const definitions = deps.definitions;
  const agentNames =
    deps.agentNames ??
    (definitions === undefined
      ? undefined
      : () => definitions.list().map((loaded) => loaded.definition.name));
  registerDelegationRoutes(app, {
    ...deps,
    ...(agentNames === undefined ? {} : { agentNames }),
    ...backgroundRule(definitions),
    logger,
    secrets,
  });
  registerSessionRoutes(app, {
    ...deps,
    ...(agentNames === undefined ? {} : { agentNames }),
    logger,
    secrets,
  });
  registerScheduleRoutes(app, { schedules: deps.schedules, agentNames, secrets, settings });
  registerCardRoutes(app, { ...deps, secrets });
  registerGrantRoutes(app, { ...deps, secrets });
  registerCardLinkMinting(app, { ...deps, settings, secrets, logger });
  registerGenerateRoutes(app, { settings, secrets, logger });
  // Before the agent routes: `POST /workspace/agents/:name` would take `/workspace/agents/check`.
  registerCheckRoutes(app, { settings, secrets, definitions });
  registerAgentRoutes(app, {
    ...(definitions === undefined ? {} : { definitions }),
    settings,
    secrets,
  });
  registerCatalogRoutes(app, { settings, secrets });
  registerWorkspaceRoutes(app, { settings, secrets });
  registerMcpRoutes(app, { mcp: deps.mcp, settings, definitions, secrets });
  if (deps.mcpDoor !== undefined) registerMcpDoorRoutes(app, deps.mcpDoor);
  return app;
}

/** The agents' own `background: true`, when the app knows the definitions. */
function backgroundRule(definitions: DefinitionRegistry | undefined) {
  return definitions === undefined
    ? {}
    : {
        isBackground: (agent: string) => definitions.get(agent)?.definition.background === true,
      };
}
