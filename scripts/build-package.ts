/**
 * `npm run build` (and so `npm pack`): deputy as a package runs compiled JavaScript from `dist/`.
 * tsc has compiled `src/` (with `.d.ts` and source maps) before this runs; this script copies the
 * files `src/` holds besides TypeScript (the grep worker, the bash grammar) to the same places
 * under `dist/`, and bundles the workflows once, so an installed worker loads
 * `dist/workflows/bundle.js` (or, traced, `bundle-traced.js`) and never runs webpack. It reports
 * on stderr only.
 */
import { cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { PROJECT_ROOT } from '../src/config/load.js';
import { TRACING_INTERCEPTORS_PATH } from '../src/tracing/worker-tracing.js';
import {
  bundleInProject,
  TRACED_WORKFLOW_BUNDLE,
  WORKFLOW_BUNDLE,
  WORKFLOWS_PATH,
} from '../src/worker.js';

const SOURCE = join(PROJECT_ROOT, 'src');
const DIST = join(PROJECT_ROOT, 'dist');

/** Every file under `src/` that tsc does not emit, copied; returns their paths in `dist/`. */
function copyAssets(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return copyAssets(path);
    if (extname(name) === '.ts') return [];
    const target = join(DIST, relative(SOURCE, path));
    cpSync(path, target);
    return [relative(PROJECT_ROOT, target)];
  });
}

const assets = copyAssets(SOURCE);
console.error(`copied ${assets.length} file(s) tsc does not emit: ${assets.join(', ')}`);
// Two bundles: the tracing interceptors are bundled in or not, as a worker needs them.
for (const [target, interceptors] of [
  [WORKFLOW_BUNDLE, []],
  [TRACED_WORKFLOW_BUNDLE, [TRACING_INTERCEPTORS_PATH]],
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
  writeFileSync(target, code);
  console.error(
    `workflow bundle: ${relative(PROJECT_ROOT, target)} (${Math.round(code.length / 1024)} KiB)`,
  );
}
