/**
 * What the agent editor's pickers offer from the workspace itself:
 *
 * - `GET /workspace/skills`: the skills a definition may name, from the discovery resolution
 *   uses (src/capabilities/skill-discovery.ts), with what it skipped;
 * - `GET /workspace/directories?path=`: the subdirectories of one workspace directory, each with
 *   the knowledge glob picking it would write (directories.ts).
 *
 * Authoring routes: with auth on they need the `admin` role (they show the workspace's layout).
 * The configuration is read per request, so a moved workspace or a new plugin dir applies at once.
 */
import type { Hono } from 'hono';
import { discoverSkills } from '../../capabilities/skill-discovery.js';
import type { LiveConfig } from '../../config/live-config.js';
import { deputyRoots } from '../../paths/deputy-roots.js';
import type { SecretMasker } from '../../secrets/masker.js';
import { relativeInside } from '../../shared/path-containment.js';
import type { AppEnv } from '../http/app-env.js';
import { requireAdmin } from '../../rights/rights.js';
import { parseQuery } from '../http/validation.js';
import { listDirectories } from './directories.js';
import { DirectoriesQuerySchema, type SkillList } from './schemas.js';

export interface WorkspaceRouteDeps {
  settings: LiveConfig;
  secrets: SecretMasker;
}

export function registerWorkspaceRoutes(app: Hono<AppEnv>, deps: WorkspaceRouteDeps): void {
  app.get('/workspace/skills', (c) => {
    requireAdmin(c.get('caller'), 'listing skills');
    const config = deps.settings.current();
    const shown = (location: string): string =>
      relativeInside(config.workspace, location) || location;
    const { index, diagnostics } = discoverSkills(config);
    const answer: SkillList = {
      v: 1,
      skills: [...index.values()]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((skill) => ({
          name: skill.name,
          description: skill.description,
          layer: skill.layer,
          location: shown(skill.location),
        })),
      diagnostics: diagnostics.map((diagnostic) => ({
        ...diagnostic,
        path: shown(diagnostic.path),
      })),
    };
    return c.json(deps.secrets.value(answer));
  });

  app.get('/workspace/directories', async (c) => {
    requireAdmin(c.get('caller'), 'listing workspace directories');
    const query = parseQuery(c, DirectoriesQuerySchema);
    const config = deps.settings.current();
    const listing = await listDirectories({
      workspace: config.workspace,
      hiddenRoots: deputyRoots(config).hiddenRoots,
      path: query.path ?? '',
    });
    return c.json(deps.secrets.value(listing));
  });
}
