/**
 * Builds the console into web/dist when its sources changed since the last build (a stamp of
 * their digest is kept in web/dist): `npm install` (prepare), `npm start` (prestart), `npm pack`
 * and the test run's global setup all call it, and only the first one after an edit builds, so
 * a pack during a test run never empties the folder a running `deputy dev` serves from.
 *
 * A production install (`npm ci --omit=dev`) has no Vite: this says so loudly and exits 0, and
 * the API answers `/` with 503 saying how to build it (the Dockerfile builds it in a stage).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { build as ViteBuild } from 'vite';

const WEB = dirname(fileURLToPath(import.meta.url));
const DIST = join(WEB, 'dist');
const STAMP = join(DIST, '.build-stamp');
/** Bumped when this file changes what a build produces, so an older stamp no longer matches. */
const BUILD_RECIPE = 'production-2';

/** Digest of everything the bundle is made from: web sources, the Vite config, the lock file. */
function sourceDigest(): string {
  // The build's own recipe counts too: a change to how it builds rebuilds.
  const hash = createHash('sha256').update(BUILD_RECIPE);
  const files = [
    join(WEB, 'index.html'),
    join(WEB, 'vite.config.ts'),
    join(WEB, '..', 'package-lock.json'),
  ];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(WEB, 'src'));
  for (const file of files.sort()) {
    hash.update(relative(WEB, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export async function buildConsole(
  options: { force?: boolean } = {},
): Promise<'built' | 'fresh' | 'skipped'> {
  const digest = sourceDigest();
  if (options.force !== true && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest) {
    return 'fresh';
  }
  let build: typeof ViteBuild;
  try {
    ({ build } = await import('vite'));
  } catch {
    process.stderr.write(
      '\n!! The web console was not built: Vite is not installed (devDependencies omitted).\n' +
        '!! The API still runs; `/` answers 503 until `npm install && npm run build:console`.\n\n',
    );
    return 'skipped';
  }
  // Vitest sets NODE_ENV=test, under which Vite would bundle React's development build (twice
  // the size, effects run twice): the console is always built for production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeFileSync(STAMP, digest);
  return 'built';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outcome = await buildConsole({ force: process.argv.includes('--force') });
  // stderr: this runs inside `npm pack --json` (prepare), whose stdout must stay JSON.
  process.stderr.write(`web console: ${outcome === 'fresh' ? 'up to date' : outcome} (web/dist)\n`);
}
