/**
 * What `dist/` holds besides the compiled modules, shared by the package build
 * (scripts/build-package.ts) and the test suite's build (test/compiled-build.ts): the files `src/`
 * holds besides TypeScript, and the workflows bundled once.
 */
import { cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { PROJECT_ROOT } from '../src/config/load.js';
import { TRACING_INTERCEPTORS_PATH } from '../src/tracing/worker-tracing.js';
import { bundleInProject, WORKFLOWS_PATH } from '../src/worker/worker.js';

export const SOURCE = join(PROJECT_ROOT, 'src');

/** Every file under `src/` that a TypeScript compiler does not emit, copied under `dist`. */
export function copyAssets(dist: string, directory = SOURCE): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return copyAssets(dist, path);
    if (extname(name) === '.ts') return [];
    const target = join(dist, relative(SOURCE, path));
    cpSync(path, target);
    return [relative(dist, target)];
  });
}

/**
 * The two workflow bundles, `workflows/bundle.js` and `workflows/bundle-traced.js` under `dist`:
 * the tracing interceptors are bundled in or not, as a worker needs them. A compiled worker loads
 * them and never runs webpack.
 */
export async function bundleWorkflows(dist: string): Promise<string[]> {
  const written: string[] = [];
  for (const [name, interceptors] of [
    ['bundle.js', []],
    ['bundle-traced.js', [TRACING_INTERCEPTORS_PATH]],
  ] as const) {
    const { code } = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      workflowInterceptorModules: [...interceptors],
      webpackConfigHook: bundleInProject,
      // Warnings only, and everything on stderr: `npm pack --json` prints its answer on stdout.
      logger: new DefaultLogger('WARN', ({ level, message }) =>
        console.error(`${level}: ${message}`),
      ),
    });
    const target = join(dist, 'workflows', name);
    writeFileSync(target, code);
    written.push(`${relative(PROJECT_ROOT, target)} (${Math.round(code.length / 1024)} KiB)`);
  }
  return written;
}
