/**
 * The web console (web/, built by Vite into web/dist): `/` serves its page, `/assets/<file>` its
 * bundles, and `/console/settings` what the page needs before it can call the API (whether a
 * token is needed, where the Temporal UI is).
 *
 * The built files are read once, when the app is made, into a Map keyed by file name: no
 * request can name any other file, and nothing is fetched from anywhere else at run time. The
 * page and its assets are public like `/docs` (the API calls they make need a token when auth is
 * on); the host guard still applies. Not built yet (a checkout without `npm install`): `/`
 * answers 503 saying how to build it, and the API works as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { DeputyError } from '../errors.js';
import type { AppEnv } from './http/app-env.js';
import { clip } from '../shared/clip.js';
import {
  component,
  jsonResponse,
  pathParameter,
  textResponse,
  type PathItems,
} from './openapi/parts.js';
import { errorAnswer } from './openapi/answers.js';

/** web/dist beside src/ (in the repository and in the installed package alike). */
export const CONSOLE_DIST = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'web',
  'dist',
);

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

export const ConsoleSettingsSchema = component(
  'ConsoleSettings',
  z.object({
    v: z.literal(1),
    authEnabled: z.boolean().describe('True when every API call needs `Authorization: Bearer`'),
    temporalUi: z
      .string()
      .nullable()
      .describe('Base URL of the Temporal UI for links to workflows; null when unknown'),
    namespace: z.string().describe('The Temporal namespace of the delegations'),
  }),
);

/** File name -> file: `index.html`, and each of `assets/` under `assets/<name>`. */
export function readConsoleFiles(dist: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!existsSync(join(dist, 'index.html'))) return files;
  const add = (name: string): void => {
    const type = TYPES[extname(name)];
    if (type === undefined) return;
    const body = readFileSync(join(dist, name));
    files.set(name, {
      body,
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
    });
  };
  add('index.html');
  if (existsSync(join(dist, 'assets'))) {
    for (const entry of readdirSync(join(dist, 'assets'), { withFileTypes: true })) {
      if (entry.isFile()) add(`assets/${entry.name}`);
    }
  }
  return files;
}

/** The paths the console serves without a token (app.ts adds them to its public paths). */
export function consolePublicPaths(files: ReadonlyMap<string, unknown>): string[] {
  return [
    CONSOLE_SETTINGS_PATH,
    '/',
    ...[...files.keys()].filter((name) => name.startsWith('assets/')).map((name) => `/${name}`),
  ];
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

  const send = (c: Context<AppEnv>, file: ConsoleFile, immutable: boolean): Response => {
    const headers = {
      ...SECURITY_HEADERS,
      'content-type': file.type,
      etag: file.etag,
      // Hashed bundle names never change content: cache them; the page itself is revalidated.
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    if (c.req.header('if-none-match') === file.etag) return c.body(null, 304, headers);
    return c.body(new Uint8Array(file.body), 200, headers);
  };

  app.get('/', (c) => {
    const page = files.get('index.html');
    if (page === undefined) {
      return c.text(
        'The web console is not built: run `npm run build:console` (npm install and npm start do it), then reload.\n',
        503,
      );
    }
    return send(c, page, false);
  });
  app.get('/assets/:file', (c) => {
    const name = c.req.param('file');
    const file = files.get(`assets/${name}`);
    if (file === undefined) {
      throw new DeputyError('not-found', `no console asset '${clip(name, 64)}'`);
    }
    return send(c, file, true);
  });
}

export const consolePaths: PathItems = {
  '/': {
    get: {
      summary: 'The web console (agents, approvals inbox, delegations), served from this server',
      security: [],
      responses: {
        '200': textResponse(
          'The console page; its API calls need a token when auth is on',
          'text/html',
        ),
        '304': { description: 'Unchanged since the `ETag` sent in `If-None-Match`' },
        '503': { description: 'The console is not built (`npm run build:console`)' },
      },
    },
  },
  '/assets/{file}': {
    get: {
      summary: "The console's script and style bundles (content-hashed names)",
      security: [],
      parameters: [pathParameter('file', z.string(), 'Bundle file name')],
      responses: {
        '200': textResponse('The bundle', 'text/javascript', 'text/css'),
        '304': { description: 'Unchanged since the `ETag` sent in `If-None-Match`' },
        '404': errorAnswer('No such bundle'),
      },
    },
  },
  [CONSOLE_SETTINGS_PATH]: {
    get: {
      summary: 'What the console needs before its first API call',
      security: [],
      responses: {
        '200': jsonResponse(
          ConsoleSettingsSchema,
          'Whether a token is needed and where the Temporal UI is',
        ),
      },
    },
  },
};
