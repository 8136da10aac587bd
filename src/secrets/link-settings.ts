/**
 * Where links point and how long they work. The base URL is what the person who opens a link
 * reaches the API at: DEPUTY_PUBLIC_URL, else `links.publicUrl`, else the API's own host and port
 * (a wildcard bind reads as 127.0.0.1). The API, the CLI and the worker (webhooks) all read it
 * here, so a link looks the same whoever minted it.
 */
import type { DeputyConfig } from '../config/schema.js';
import { parseDuration } from '../shared/duration.js';

export const PUBLIC_URL_VARIABLE = 'DEPUTY_PUBLIC_URL';

/** How long a link works when the configuration says nothing: a day. */
export const DEFAULT_LINK_EXPIRY_MS = 24 * 60 * 60 * 1000;

const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The base URL without a trailing slash. `boundPort`: the port the API actually listens on, when
 * the process knows it (a configured port 0 picks a free one).
 */
export function linkBaseUrl(
  config: Pick<DeputyConfig, 'links' | 'api'>,
  env: NodeJS.ProcessEnv = process.env,
  boundPort: number | null = null,
): string {
  const named = env[PUBLIC_URL_VARIABLE]?.trim() || config.links?.publicUrl;
  if (named !== undefined && named !== '') return named.replace(/\/+$/, '');
  const host = WILDCARD_BINDS.has(config.api.host) ? '127.0.0.1' : config.api.host;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shown}:${boundPort ?? config.api.port}`;
}

/** The host name of the base URL (for the link routes' Host check), lower-cased. */
export function linkBaseHost(
  config: Pick<DeputyConfig, 'links' | 'api'>,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  try {
    // The port does not matter for a host name.
    return new URL(linkBaseUrl(config, env)).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * When a link minted at `now` stops working: `links.expiry` (default 24 h) from now, or the
 * card's deadline when that is sooner (a link must not outlive the card's chance to be decided).
 * Whole seconds, rounded down: the token carries seconds.
 */
export function linkExpiresAt(
  config: Pick<DeputyConfig, 'links'>,
  card: { deadline?: string },
  now: number,
): number {
  const text = config.links?.expiry;
  const parsed = text === undefined ? null : parseDuration(text);
  const expiry = parsed?.ok === true ? parsed.ms : DEFAULT_LINK_EXPIRY_MS;
  const deadline = card.deadline === undefined ? Number.NaN : Date.parse(card.deadline);
  const until = Number.isNaN(deadline) ? now + expiry : Math.min(now + expiry, deadline);
  return Math.floor(until / 1000) * 1000;
}
