/**
 * The web console (web/, built by Vite into web/dist): `/` serves its page, `/assets/<file>` its
 * bundles, and `/console/settings` what the page needs before it can call the API (whether a
 * token is needed, where the Temporal UI is).
 *
 * The built files are read once, when the app is made, into a Map keyed by request path: no
 * request can name any other file, and nothing is fetched from anywhere else at run time. The
 * page and its assets are public like `/docs` (the API calls they make need a token when auth is
 * on); the host guard still applies. Not built yet (a checkout without `npm install`): `/`
 * answers 503 saying how to build it, and the API works as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import type { AppEnv } from './app-env.js';

/** web/dist beside src/ (in the repository and in the installed package alike). */
export const CONSOLE_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

export interface ConsoleOptions {
  /** Where the built console is. Default CONSOLE_DIST. */
  dist?: string;
  /** The Temporal UI's base URL, for links to a delegation's workflow; null: no links. */
  temporalUi?: string | null;
  /** The Temporal namespace, for those links. Default 'default'. */
  namespace?: string;
}

interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * Self only, no inline script or style: the bundles are files from this server. `connect-src
 * 'self'`: the page talks to this API and nothing else. The Temporal UI is a link (navigation),
 * which the policy does not govern.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export const CONSOLE_SETTINGS_PATH = '/console/settings';

/** Request path -> file, for every file of the build (index.html answers `/`). */
export function readConsoleFiles(dist: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!existsSync(join(dist, 'index.html'))) return files;
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`);
      else if (entry.isFile() && TYPES[extname(entry.name)] !== undefined) {
        const body = readFileSync(path);
        files.set(`${prefix}${entry.name}`, {
          body,
          type: TYPES[extname(entry.name)]!,
          etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
        });
      }
    }
  };
  walk(dist, '/');
  const index = files.get('/index.html');
  if (index !== undefined) files.set('/', index);
  return files;
}

/** The paths the console serves without a token (app.ts adds them to its public paths). */
export function consolePublicPaths(files: ReadonlyMap<string, unknown>): string[] {
  return [CONSOLE_SETTINGS_PATH, '/', ...files.keys()];
}

export function registerConsoleRoutes(
  app: Hono<AppEnv>,
  files: ReadonlyMap<string, ConsoleFile>,
  options: ConsoleOptions & { authEnabled: () => boolean },
): void {
  app.get(CONSOLE_SETTINGS_PATH, (c) =>
    c.json({
      v: 1 as const,
      authEnabled: options.authEnabled(),
      temporalUi: options.temporalUi ?? null,
      namespace: options.namespace ?? 'default',
    }),
  );

  if (files.size === 0) {
    app.get('/', (c) =>
      c.text(
        'The web console is not built: run `npm run build:console` (npm install and npm start do it), then reload.\n',
        503,
      ),
    );
    return;
  }
  for (const [path, file] of files) {
    app.get(path, (c) => {
      // Hashed bundle names never change content: cache them; the page itself is revalidated.
      const immutable = path.startsWith('/assets/');
      const headers = {
        ...SECURITY_HEADERS,
        'content-type': file.type,
        etag: file.etag,
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      };
      if (c.req.header('if-none-match') === file.etag) return c.body(null, 304, headers);
      return c.body(new Uint8Array(file.body), 200, headers);
    });
  }
}
