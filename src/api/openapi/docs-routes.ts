/**
 * `GET /docs`: the interactive API reference, Swagger UI drawing `/openapi.json`.
 * Everything the page loads is served by this server: no CDN, nothing from another origin, so
 * the reference works offline, and its Content-Security-Policy forbids any other origin anyway.
 *
 * Swagger UI's two files are vendored in ./swagger-ui, gzipped, byte for byte those of
 * `swagger-ui-dist` (its README says which version and how to update): the package itself
 * depends on `@scarf/scarf`, a telemetry ping that runs as an install script. Each file's
 * sha256 is pinned below and checked when it is read, so a changed file is an error, not a
 * different page.
 *
 * Only a fixed list of assets is served (a Map, not a path into node_modules), so no request
 * can name any other file. The routes are public like `/openapi.json`: app.ts exempts exactly
 * DOCS_PUBLIC_PATHS from authentication; the host guard still applies.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Hono } from 'hono';
import { z } from 'zod';
import { DeputyError } from '../../errors.js';
import type { AppEnv } from '../http/app-env.js';
import { clip } from '../../shared/clip.js';
import { pathParameter, textResponse, type PathItems } from './parts.js';
import { errorAnswer } from './answers.js';

/** Beside this module, in src/ and in dist/ alike (the build copies the folder as it is). */
const SWAGGER_UI = new URL('./swagger-ui/', import.meta.url);
/** The version the vendored files come from; SWAGGER_UI's README says how to update them. */
const SWAGGER_UI_VERSION = '5.35.0';

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/**
 * Starts Swagger UI. A file rather than an inline script, so the policy needs no
 * `'unsafe-inline'`. URLs are relative to the page (`/docs`), so the reference also works behind
 * a proxy that mounts the API under a prefix.
 */
const START_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    // The default posts the document to validator.swagger.io for a badge: nothing leaves here.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

interface Asset {
  type: string;
  read: () => Promise<string>;
}

const unzip = promisify(gunzip);

/** `<file>.gz` from SWAGGER_UI, unzipped, and only if it is exactly the pinned file. */
const vendored = (file: string, sha256: string) => async () => {
  const path = fileURLToPath(new URL(`${file}.gz`, SWAGGER_UI));
  const body = await unzip(await readFile(path));
  if (createHash('sha256').update(body).digest('hex') !== sha256) {
    throw new Error(
      `${path} is not ${file} of swagger-ui-dist ${SWAGGER_UI_VERSION} (sha256 ${sha256})`,
    );
  }
  return body.toString('utf8');
};

const ASSETS = new Map<string, Asset>([
  [
    'swagger-ui.css',
    {
      type: CSS,
      read: vendored(
        'swagger-ui.css',
        '5ed08757e53da3e026d6cbecc61fe5d43585c9560b302d534ad56692519a273d',
      ),
    },
  ],
  [
    'swagger-ui-bundle.js',
    {
      type: JAVASCRIPT,
      read: vendored(
        'swagger-ui-bundle.js',
        'e6a898692f2d768e807c3ba4626068a69a2c5dd960dd6c76f3e4d3a3de180af2',
      ),
    },
  ],
  ['start.js', { type: JAVASCRIPT, read: async () => START_SCRIPT }],
]);

const ASSET_PREFIX = '/docs/assets/';

/** The exact paths anyone may read without a token (app.ts PUBLIC_PATHS). */
export const DOCS_PUBLIC_PATHS: readonly string[] = [
  '/docs',
  ...[...ASSETS.keys()].map((name) => `${ASSET_PREFIX}${name}`),
];

/**
 * Self only. `img-src data:`: Swagger UI's stylesheet draws its icons as `data:` SVGs. Scripts
 * and styles come from this server's files only, no inline code; `frame-ancestors 'none'` keeps
 * another page from framing the reference (and a token typed into it).
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>deputy API reference</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="docs/assets/swagger-ui-bundle.js"></script>
    <script src="docs/assets/start.js"></script>
  </body>
</html>
`;

interface Loaded {
  body: string;
  etag: string;
}

export function registerDocsRoutes(app: Hono<AppEnv>): void {
  // Read once, on first use: the bundle is 1.7 MB and does not change while the process runs.
  const loaded = new Map<string, Promise<Loaded>>();
  const load = (name: string, asset: Asset): Promise<Loaded> => {
    let pending = loaded.get(name);
    if (pending === undefined) {
      pending = asset.read().then((body) => ({
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
      }));
      // A failed read (a file missing or changed) is retried by the next request, not cached.
      pending.catch(() => loaded.delete(name));
      loaded.set(name, pending);
    }
    return pending;
  };

  app.get('/docs', (c) =>
    c.html(PAGE, 200, {
      'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    }),
  );

  app.get(`${ASSET_PREFIX}:file`, async (c) => {
    const name = c.req.param('file');
    const asset = ASSETS.get(name);
    if (asset === undefined) {
      throw new DeputyError('not-found', `no docs asset '${clip(name, 64)}'`);
    }
    const { body, etag } = await load(name, asset);
    // no-cache: the browser asks again each time, and an unchanged asset costs a 304 only.
    const headers = { etag, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    return c.body(body, 200, { ...headers, 'content-type': asset.type });
  });
}

export const docsPaths: PathItems = {
  '/docs': {
    get: {
      summary: 'Interactive reference of this API (Swagger UI), served from this server',
      security: [],
      responses: {
        '200': textResponse('The reference page; it reads `/openapi.json`', 'text/html'),
      },
    },
  },
  [`${ASSET_PREFIX}{file}`]: {
    get: {
      summary: "The reference page's script and style (Swagger UI's, vendored and pinned)",
      security: [],
      parameters: [pathParameter('file', z.enum([...ASSETS.keys()]), 'Asset name')],
      responses: {
        '200': textResponse('The asset', 'text/javascript', 'text/css'),
        '304': { description: 'Unchanged since the `ETag` sent in `If-None-Match`' },
        '404': errorAnswer('No such asset'),
      },
    },
  },
};
