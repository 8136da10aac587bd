/**
 * What an editor may offer: the tool catalog as the caller's roles see it, and the
 * configured models. `GET /workspace/tools` filters with `listPermittedTools`, the function
 * resolution itself uses, so a picker never offers a tool the caller could not obtain.
 */
import type { Hono } from 'hono';
import { capabilityDimensionOf, listPermittedTools } from '../../capabilities/providers.js';
import type { LiveConfig } from '../../config/live-config.js';
import { modelProblem } from '../../definitions/model-check.js';
import type { AppEnv } from '../http/app-env.js';
import type { ModelCatalog, ToolCatalog } from './catalog-schemas.js';
import type { SecretMasker } from '../../secrets/masker.js';

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
        ...(dimension === null ? {} : { requires: dimension }),
        tools: provider.tools.map((tool) => ({
          name: tool.name,
          spec: `${provider.name}:${tool.name}`,
          description: tool.description,
          toolClass: tool.toolClass,
          inputSchema: tool.inputSchema,
        })),
      };
    });
    const catalog: ToolCatalog = {
      v: 1,
      workspaceCwd: deps.settings.current().workspace,
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
    };
    return c.json(catalog);
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
    const answer: ModelCatalog = {
      v: 1,
      workspaceCwd: workspace,
      default: {
        handle: 'default',
        resolvesTo: models.default,
        runnable: defaultProblem === null,
        ...(defaultProblem === null ? {} : { problem: defaultProblem }),
      },
      models: catalog,
      aliases: models.aliases,
      overrides: models.overrides,
    };
    return c.json(deps.secrets.value(answer));
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
