/**
 * Minting the approve and deny links of one pending card for one identity. The caller has
 * checked that the identity may decide the card (src/rights/rights.ts); a link never grants more
 * than its minter had, since posting it checks the same rights again.
 */
import type { DeputyConfig } from '../config/schema.js';
import { DeputyError } from '../errors.js';
import type { CardLinks } from '../shared/cards/card-links.js';
import { linkKeys } from './link-keys.js';
import { linkBaseUrl, linkExpiresAt } from './link-settings.js';
import { randomNonce, signLinkToken, type LinkDecision, type LinkIdentity } from './link-token.js';

export type LinksSettings = Pick<DeputyConfig, 'links' | 'api'>;

/** `<base>/cards/<card id>/links/<token>`: the page a link opens, and where its form posts. */
export function cardLinkPath(cardId: string, token: string): string {
  return `/cards/${encodeURIComponent(cardId)}/links/${token}`;
}

export interface MintOptions {
  env?: NodeJS.ProcessEnv;
  /** Milliseconds since the epoch. Default: now. */
  now?: number;
  /** The port the API listens on, when it differs from the configured one (port 0). */
  boundPort?: number | null;
  /** Default: random. A webhook passes one per event, so a retried delivery carries the same links. */
  nonce?: (decision: LinkDecision) => string;
}

/** Throws DeputyError `unavailable` naming what to set when no link key is configured. */
export function mintCardLinks(
  config: LinksSettings,
  card: { id: string; deadline?: string },
  identity: LinkIdentity,
  options: MintOptions = {},
): CardLinks {
  const env = options.env ?? process.env;
  const keys = linkKeys(config, env);
  if (!keys.on) throw new DeputyError('unavailable', keys.reason);
  const expiresAt = linkExpiresAt(config, card, options.now ?? Date.now());
  const base = linkBaseUrl(config, env, options.boundPort ?? null);
  const url = (decision: LinkDecision) =>
    base +
    cardLinkPath(
      card.id,
      signLinkToken(
        {
          cardId: card.id,
          decision,
          expiresAt,
          identity,
          nonce: options.nonce?.(decision) ?? randomNonce(),
        },
        keys.keys,
      ),
    );
  return {
    cardId: card.id,
    approve: url('approve'),
    deny: url('deny'),
    expiresAt: new Date(expiresAt).toISOString(),
  };
}
