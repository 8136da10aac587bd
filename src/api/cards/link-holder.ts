/**
 * Who a one-tap link decides as, judged when it is used, not only when it was minted. A link
 * lives for hours (`links.expiry`) and its identity is signed into it; the configuration can
 * change meanwhile. Removing a person's token must take their power to decide away at once, as
 * it does for the bearer routes: so a link whose identity no longer exists decides nothing.
 *
 * - No identity (minted with auth off): refused while auth is on.
 * - The local operator (`cli:<login>` of this machine, minted by `deputy cards --links`): as
 *   signed; that person holds the data directory, not a token.
 * - `webhook:<name>`: while that webhook is configured (`notifications.webhooks`).
 * - Any other id is a user of `auth.tokens`: while a usable token names them, and with only the
 *   roles they had when the link was minted AND still have now, so a role taken away since is
 *   not decided with (the rights check that follows sees those roles).
 */
import type { DeputyConfig } from '../../config/schema.js';
import type { LinkIdentity } from '../../secrets/link-token.js';
import type { Auth } from '../http/auth.js';

/** The prefix of the identity a webhook's links decide as (activities/webhook-card-links.ts). */
const WEBHOOK_PREFIX = 'webhook:';

export type LinkHolder = { ok: true; identity: LinkIdentity } | { ok: false; message: string };

export interface LinkHolderContext {
  auth: Pick<Auth, 'enabled' | 'user'>;
  config: Pick<DeputyConfig, 'notifications'>;
  /** This machine's operator id (`localOperatorId()`). */
  operator: string;
}

export function linkHolderNow(identity: LinkIdentity, now: LinkHolderContext): LinkHolder {
  const { id } = identity;
  if (id === null) {
    return now.auth.enabled
      ? {
          ok: false,
          message:
            'This link was made while auth was off; auth is on now, so it decides nothing. Ask for a new link.',
        }
      : { ok: true, identity };
  }
  if (id === now.operator) return { ok: true, identity };
  if (id.startsWith(WEBHOOK_PREFIX)) {
    const webhook = id.slice(WEBHOOK_PREFIX.length);
    if (Object.hasOwn(now.config.notifications.webhooks, webhook)) return { ok: true, identity };
    return {
      ok: false,
      message: `This link was sent by the webhook '${webhook}', which is no longer configured on this server; it decides nothing. Decide the card from the console or the CLI.`,
    };
  }
  const user = now.auth.user?.(id) ?? null;
  if (user === null) {
    return {
      ok: false,
      message: `This link was made for ${id}, who no longer exists on this server (no token in auth.tokens names them); it decides nothing. Ask someone who may decide for a new link.`,
    };
  }
  const roles = identity.roles.filter((role) => user.roles.includes(role));
  return { ok: true, identity: { id, roles } };
}
