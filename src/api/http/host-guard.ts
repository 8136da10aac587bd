/**
 * The defence against cross-site calls and DNS rebinding. Without auth, anything that can
 * make the user's browser send a request to the loopback API could start, list or decide
 * delegations:
 *
 * - DNS rebinding: a page at `evil.example` re-points its own name at 127.0.0.1 and then reads the
 *   API as same-origin. The browser still sends `Host: evil.example`, so only answering to
 *   loopback host names (and names the operator lists) defeats it.
 * - Cross-site requests: a page anywhere can POST to 127.0.0.1 (forms, `fetch` with `no-cors`).
 *   Browsers label them with `Origin` and `Sec-Fetch-Site`; a foreign origin is refused here, and
 *   json-only.ts makes every body need a CORS preflight the API never grants.
 *
 * Port numbers are not compared: a rebinding page cannot put a loopback name in `Host`, and a
 * page served from another loopback port is already code running on this machine.
 */
import type { MiddlewareHandler } from 'hono';
import { DeputyError } from '../../errors.js';
import { clip } from '../../shared/clip.js';

/** `localhost`, `::1` (bracketed or not) and 127.0.0.0/8 literals. Also used for the bind check. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * The host name of a `Host` header value (`name`, `name:port`, `[v6]`, `[v6]:port`), lower-cased
 * and with IPv6 brackets kept; null when it is not one of those forms.
 */
export function hostNameOf(authority: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]/\s@]+)(?::\d{1,5})?$/i.exec(authority.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

/** An operator's allow-list entry (`api`, `api:4780`, `fd00::1`, `[fd00::1]`) as a host name. */
export function normalizeAllowedHost(entry: string): string | null {
  const trimmed = entry.trim().toLowerCase();
  // A bare IPv6 address has several colons; brackets make it look as it does in `Host`.
  if (/^[0-9a-f:.]+$/.test(trimmed) && trimmed.split(':').length > 2) return `[${trimmed}]`;
  return trimmed === '' ? null : hostNameOf(trimmed);
}

/**
 * `DEPUTY_ALLOWED_HOSTS`: comma- or space-separated; undefined when the variable is not set.
 * An entry that is no host name (`http://api`) is skipped and reported to `onInvalid`.
 */
export function parseAllowedHosts(
  value: string | undefined,
  onInvalid: (entry: string) => void = () => {},
): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .flatMap((entry) => {
      const host = normalizeAllowedHost(entry);
      if (host === null) onInvalid(entry);
      return host ?? [];
    });
}

export interface HostGuardOptions {
  /** Host names answered besides the loopback ones, already normalized. */
  allowedHosts: readonly string[];
  /** Paths that skip the check (liveness probes reach the API under any name). */
  openPaths: ReadonlySet<string>;
}

export function hostGuard(options: HostGuardOptions): MiddlewareHandler {
  const allowed = new Set(options.allowedHosts);
  const isAllowed = (name: string) => isLoopbackHost(name) || allowed.has(name);
  const names = ['localhost', '127.0.0.1', '[::1]', ...options.allowedHosts].join(', ');

  return async (c, next) => {
    if (options.openPaths.has(c.req.path)) return next();

    // In-process requests (app.request) carry no Host header; their URL says where they went.
    const authority = c.req.header('host') ?? new URL(c.req.url).host;
    const host = hostNameOf(authority);
    if (host === null || !isAllowed(host)) {
      throw new DeputyError(
        'misdirected',
        `this API answers only to the host names ${names} (with any port); the request was for '${clip(authority, 100)}'. List other names in DEPUTY_ALLOWED_HOSTS.`,
      );
    }

    const origin = c.req.header('origin');
    if (origin !== undefined && !isAllowedOrigin(origin, isAllowed)) {
      throw new DeputyError(
        'forbidden',
        `requests from the web origin '${clip(origin, 100)}' are refused: only pages served from ${names} may call this API`,
      );
    }
    // A cross-site request without Origin (an image, a top-level navigation) still says so here.
    if (c.req.header('sec-fetch-site')?.toLowerCase() === 'cross-site') {
      throw new DeputyError(
        'forbidden',
        'cross-site requests from web pages are refused (Sec-Fetch-Site: cross-site)',
      );
    }
    return next();
  };
}

function isAllowedOrigin(origin: string, isAllowed: (host: string) => boolean): boolean {
  // `null` (sandboxed frames, file: pages, redirects) and anything unparsable are foreign.
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && isAllowed(url.hostname);
}
