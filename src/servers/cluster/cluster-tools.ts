/**
 * The programs of the cluster profile, pinned and built from the Go module proxy once into the
 * tools folder (`DEPUTY_TOOLS_DIR`, default the user's cache `~/.cache/deputy/tools`), then reused
 * by every project:
 *
 * - the Temporal server and its SQL schema tool (`go install go.temporal.io/server/...`), with
 *   the PostgreSQL schema files copied out of the module;
 * - the Temporal UI server (`github.com/temporalio/ui-server/v2`, which embeds the UI). Its
 *   go.mod has a replace directive, so `go install pkg@version` refuses it: it is built with
 *   `go build` inside the downloaded module instead.
 *
 * Each is built into a staging folder and renamed into place under an inter-process lock
 * (src/servers/tool-install.ts): two processes installing at once build it once and never see
 * half a tool. Go itself must be on PATH (or `GO`); nothing else is needed.
 */
import { existsSync } from 'node:fs';
import { cp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadModule, goRun } from '../go-build.js';
import { installToolOnce } from '../tool-install.js';
import { toolsDirectoryOf } from '../../paths/tools-directory.js';

/** The server the docker-compose images are pinned to as well (test/deployment checks both). */
export const TEMPORAL_SERVER_VERSION = '1.29.1';
export const TEMPORAL_UI_VERSION = '2.34.0';

const SERVER_MODULE = 'go.temporal.io/server';
const UI_MODULE = 'github.com/temporalio/ui-server/v2';

export interface ClusterTools {
  server: string;
  sqlTool: string;
  /** `schema/postgresql/v12`: `temporal/` and `visibility/`, each with `versioned/`. */
  postgresSchema: string;
  uiServer: string;
}

export function clusterToolPaths(env: NodeJS.ProcessEnv = process.env): ClusterTools {
  const tools = toolsDirectoryOf(env);
  const serverDir = join(tools, `temporal-server-${TEMPORAL_SERVER_VERSION}`);
  return {
    server: join(serverDir, 'temporal-server'),
    sqlTool: join(serverDir, 'temporal-sql-tool'),
    postgresSchema: join(serverDir, 'schema', 'postgresql', 'v12'),
    uiServer: join(tools, `temporal-ui-server-${TEMPORAL_UI_VERSION}`, 'temporal-ui-server'),
  };
}

/** Builds what is missing; returns the paths. Takes about 3 minutes on a cold Go cache. */
export async function ensureClusterTools(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = () => {},
): Promise<ClusterTools> {
  const paths = clusterToolPaths(env);
  const go = env.GO ?? 'go';
  await installToolOnce({
    target: join(paths.server, '..'),
    name: `the Temporal server ${TEMPORAL_SERVER_VERSION}`,
    isInstalled: () =>
      existsSync(paths.server) && existsSync(paths.sqlTool) && existsSync(paths.postgresSchema),
    installing: `Building the Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool (go install, about 3 minutes the first time)`,
    build: async (staging) => {
      for (const [pkg, name] of [
        ['cmd/server', 'temporal-server'],
        ['cmd/tools/sql', 'temporal-sql-tool'],
      ] as const) {
        await goRun(go, ['install', `${SERVER_MODULE}/${pkg}@v${TEMPORAL_SERVER_VERSION}`], {
          env: { ...env, GOBIN: join(staging, 'bin') },
        });
        await rename(join(staging, 'bin', pkg.split('/').at(-1) ?? ''), join(staging, name));
      }
      await rm(join(staging, 'bin'), { recursive: true, force: true });
      const moduleDir = await downloadModule(go, SERVER_MODULE, TEMPORAL_SERVER_VERSION, env);
      await cp(
        join(moduleDir, 'schema', 'postgresql', 'v12'),
        join(staging, 'schema', 'postgresql', 'v12'),
        { recursive: true },
      );
    },
    log,
  });
  await installToolOnce({
    target: join(paths.uiServer, '..'),
    name: `the Temporal UI server ${TEMPORAL_UI_VERSION}`,
    isInstalled: () => existsSync(paths.uiServer),
    installing: `Building the Temporal UI server ${TEMPORAL_UI_VERSION} (go build, about a minute)`,
    build: async (staging) => {
      const moduleDir = await downloadModule(go, UI_MODULE, TEMPORAL_UI_VERSION, env);
      await goRun(go, ['build', '-o', join(staging, 'temporal-ui-server'), './cmd/server'], {
        env,
        cwd: moduleDir,
      });
    },
    log,
  });
  return paths;
}

// `npm run setup:cluster`: build the cluster's programs ahead of time (CI does, before its tests).
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const paths = await ensureClusterTools(process.env, (line) => console.log(line));
  console.log(`temporal server: ${paths.server}\ntemporal UI: ${paths.uiServer}`);
}
