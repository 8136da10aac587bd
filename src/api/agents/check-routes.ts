/**
 * `POST /workspace/agents/check`: the agent editor's live validation (check.ts). Nothing
 * is written and nothing starts; the answer says whether a save would be accepted and what a
 * delegation of the agent would get. An authoring route: with auth on it needs the `admin` role.
 *
 * Registered before the agent routes, whose `POST /workspace/agents/:name` would otherwise take
 * the path (an agent named `check` is updated with PATCH, like one named `generate`).
 */
import type { Hono } from 'hono';
import type { DefinitionRegistry } from '../../definitions/registry/registry.js';
import type { LiveConfig } from '../../config/live-config.js';
import type { SecretMasker } from '../../secrets/masker.js';
import { checkAgent } from './check.js';
import type { AppEnv } from '../http/app-env.js';
import { CheckAgentBodySchema } from './check-schemas.js';
import { requireAdmin } from '../../rights/rights.js';
import { parseBody } from '../http/validation.js';

export interface CheckRouteDeps {
  settings: LiveConfig;
  secrets: SecretMasker;
  /** Built-in names and stored agents; without it neither is checked. */
  definitions?: DefinitionRegistry | undefined;
}

export function registerCheckRoutes(app: Hono<AppEnv>, deps: CheckRouteDeps): void {
  app.post('/workspace/agents/check', async (c) => {
    const caller = c.get('caller');
    requireAdmin(caller, 'checking an agent');
    const body = await parseBody(c, CheckAgentBodySchema);
    return c.json(
      checkAgent(body, {
        config: deps.settings.current(),
        caller,
        definitions: deps.definitions,
        secrets: deps.secrets,
      }),
    );
  });
}
