/**
 * The suites that start deputy as a child process (`deputy dev`, the CLI, crash-test workers) run
 * it compiled, as an installed package does: built here once per run instead of compiled by tsx
 * and bundled by webpack again in every child (seconds of CPU each, hundreds of times a run).
 * In-process workers load the same prebuilt workflow bundle (test/integration/support/harness.ts).
 *
 * The build is the package's, minus type declarations: esbuild transpiles `src/` file by file (as
 * tsx does for the source), then the package build's own steps copy the assets and bundle the
 * workflows. It is skipped when `dist/` was built by this step from the same sources, and built
 * aside then moved into place, so a run beside another never loads a half-written `dist/`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import fg from 'fast-glob';
import { PROJECT_ROOT } from '../src/config/load.js';
import { bundleWorkflows, copyAssets, SOURCE } from '../scripts/dist-parts.js';

const DIST = join(PROJECT_ROOT, 'dist');
const FINGERPRINT = '.test-build';

/** Everything the build reads: the sources, the build's own steps, the dependency versions. */
function fingerprint(): string {
  const files = fg
    .sync(['src/**/*', 'scripts/dist-parts.ts', 'package-lock.json', 'tsconfig.json'], {
      cwd: PROJECT_ROOT,
      dot: true,
    })
    .sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(PROJECT_ROOT, file)));
  return hash.digest('hex');
}

async function buildDist(): Promise<void> {
  const wanted = fingerprint();
  const stamp = join(DIST, FINGERPRINT);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  const began = Date.now();
  // Aside in the ignored data folder, on the same file system, so the move is one rename.
  const aside = join(PROJECT_ROOT, '.deputy', `dist-build-${process.pid}`);
  rmSync(aside, { recursive: true, force: true });
  mkdirSync(aside, { recursive: true });
  await build({
    entryPoints: fg.sync('**/*.ts', { cwd: SOURCE, absolute: true }),
    outdir: aside,
    outbase: SOURCE,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  copyAssets(aside);
  await bundleWorkflows(aside);
  writeFileSync(join(aside, FINGERPRINT), wanted);
  const old = join(PROJECT_ROOT, '.deputy', `dist-old-${process.pid}`);
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(aside, DIST);
  rmSync(old, { recursive: true, force: true });
  process.stderr.write(
    `compiled deputy into dist/ for the child processes (${Date.now() - began} ms)\n`,
  );
}

// Projects' global setups share one process: the first builds, the others wait for it.
const building = Symbol.for('deputy.test.compiled-build');
type WithBuild = typeof globalThis & { [building]?: Promise<void> };

export default async function setup(): Promise<void> {
  const shared = globalThis as WithBuild;
  shared[building] ??= buildDist();
  await shared[building];
}
