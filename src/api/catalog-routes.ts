/**
 * What an editor may offer (API-6): the tool catalog as the caller's roles see it, and the
 * configured models. `GET /workspace/tools` filters with `listPermittedTools`, the function
 * resolution itself uses, so a picker never offers a tool the caller could not obtain.
 */
import type { Hono } from 'hono';
import { capabilityDimensionOf, listPermittedTools } from '../capabilities/providers.js';
import type { LiveConfig } from '../live-config.js';
import { modelProblem } from '../definitions/model-check.js';
import type { AppEnv } from './app-env.js';
import type { SecretMasker } from '../secrets/masker.js';

export function registerCatalogRoutes(
  app: Hono<AppEnv>,
  deps: { settings: LiveConfig; secrets: SecretMasker },
): void {
  app.get('/workspace/tools', (c) => {
    const caller = c.get('caller');
    const providers = listPermittedTools(caller).map((provider) => {
      const dimension = capabilityDimensionOf(provider.name);
      return {
        name: provider.name,
        ...(provider.requiredRole === undefined ? {} : { requiredRole: provider.requiredRole }),
        /** Mounted only when the definition declares this field too (undeclared means unreachable). */
        ...(dimension === null ? {} : { requires: dimension }),
        tools: provider.tools.map((tool) => ({
          name: tool.name,
          spec: `${provider.name}:${tool.name}`,
          description: tool.description,
          toolClass: tool.toolClass,
        })),
      };
    });
    return c.json({
      v: 1 as const,
      workspaceCwd: deps.settings.current().workspace,
      /** Roles the list was filtered with; null when auth is off (nothing is filtered). */
      roles: caller.id === null ? null : caller.roles,
      providers,
      // qwen-code's flat shape, for pickers written against it.
      tools: providers.flatMap((provider) =>
        provider.tools.map((tool) => ({
          name: tool.name,
          displayName: tool.name,
          description: tool.description,
          enabled: true,
          provider: provider.name,
        })),
      ),
    });
  });

  app.get('/workspace/models', (c) => {
    const { models, workspace } = deps.settings.current();
    const defaultProblem = modelProblem('default', models);
    // Providers and provider-side model names only: keys stay where they are (apiKeyEnv names a
    // variable, its value is never read here).
    const catalog = Object.entries(models.catalog).map(([handle, entry]) => ({
      handle,
      provider: entry.provider,
      model: entry.model,
      ...(entry.baseUrl === undefined ? {} : { baseUrl: withoutCredentials(entry.baseUrl) }),
      isDefault: models.default === handle,
    }));
    return c.json(
      deps.secrets.value({
        v: 1 as const,
        workspaceCwd: workspace,
        /** The sentinel a definition writes to run on `default`, and what it means now. */
        default: {
          handle: 'default',
          resolvesTo: models.default,
          runnable: defaultProblem === null,
          ...(defaultProblem === null ? {} : { problem: defaultProblem }),
        },
        models: catalog,
        aliases: models.aliases,
        overrides: models.overrides,
      }),
    );
  });
}

/** A base URL may carry `user:password@`; the catalog shows where a model is, not how to log in. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
