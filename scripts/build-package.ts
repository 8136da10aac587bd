/**
 * `npm run build` (and so `npm pack`): deputy as a package runs compiled JavaScript from `dist/`.
 * tsc has compiled `src/` (with `.d.ts` and source maps) before this runs; this script copies the
 * files `src/` holds besides TypeScript (the grep worker, the bash grammar) to the same places
 * under `dist/`, and bundles the workflows once, so an installed worker loads
 * `dist/workflows/bundle.js` (or, traced, `bundle-traced.js`) and never runs webpack. It reports
 * on stderr only.
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/config/load.js';
import { bundleWorkflows, copyAssets } from './dist-parts.js';

const DIST = join(PROJECT_ROOT, 'dist');

const assets = copyAssets(DIST);
console.error(`copied ${assets.length} file(s) tsc does not emit: ${assets.join(', ')}`);
for (const bundle of await bundleWorkflows(DIST)) console.error(`workflow bundle: ${bundle}`);
