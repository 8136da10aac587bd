/**
 * Jaeger, the trace store the tracing test exports to and reads back, and a local
 * place to look at deputy's traces: built once from the Go module proxy into the tools folder
 * (`DEPUTY_TOOLS_DIR`), like the cluster profile's server. Its go.mod has replace directives, so
 * `go install pkg@version` refuses it: it is built with `go build` inside the downloaded module.
 * The binary with no arguments is Jaeger's all-in-one: in-memory storage, OTLP on 4318, the UI
 * on 16686.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { downloadModule, goRun } from '../go-build.js';
import { installToolOnce } from '../tool-install.js';
import { toolsDirectoryOf } from '../../paths/tools-directory.js';

export const JAEGER_VERSION = '1.75.0';
const JAEGER_MODULE = 'github.com/jaegertracing/jaeger';

export function jaegerPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(toolsDirectoryOf(env), `jaeger-${JAEGER_VERSION}`, 'jaeger');
}

/** Builds Jaeger when missing; returns its path. A few minutes on a cold Go cache. */
export async function ensureJaeger(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = () => {},
): Promise<string> {
  const path = jaegerPath(env);
  const go = env.GO ?? 'go';
  await installToolOnce({
    target: join(path, '..'),
    name: `Jaeger ${JAEGER_VERSION}`,
    isInstalled: () => existsSync(path),
    installing: `Building Jaeger ${JAEGER_VERSION} (go build, a few minutes the first time)`,
    build: async (staging) => {
      const moduleDir = await downloadModule(go, JAEGER_MODULE, JAEGER_VERSION, env);
      await goRun(go, ['build', '-o', join(staging, 'jaeger'), './cmd/jaeger'], {
        env,
        cwd: moduleDir,
      });
    },
    log,
  });
  return path;
}

// `npm run setup:jaeger`: build it ahead of time (CI does, before its tests).
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(`jaeger: ${await ensureJaeger(process.env, (line) => console.log(line))}`);
}
