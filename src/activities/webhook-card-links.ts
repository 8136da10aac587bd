/**
 * One-tap links in a `card.*` webhook body, minted here in the activity that sends it:
 * the workflow never holds the signing key (anything it holds is recorded in history).
 *
 * They decide as `webhook:<name>`, an admin: the operator who configured the webhook and the link
 * key chose to let whoever that webhook reaches approve or deny its cards, one card and one
 * decision per link. The expiry counts from the event's time and the nonce is the event's, so
 * every retried delivery of one event carries the same links (and the same signature).
 */
import { createHash } from 'node:crypto';
import type { DeputyConfig } from '../config/schema.js';
import { linkKeys } from '../secrets/link-keys.js';
import { mintCardLinks } from '../secrets/link-mint.js';
import type { CardLinks } from '../shared/cards/card-links.js';
import { ADMIN_ROLE } from '../shared/caller.js';
import type { Notification } from '../shared/workflow-contract/notifications.js';

/** The identity a webhook's links decide as. */
export function webhookLinkIdentity(webhook: string) {
  return { id: `webhook:${webhook}`, roles: [ADMIN_ROLE] };
}

/** The links of a card event's pending card; undefined when links are off or it is no card event. */
export function webhookCardLinks(
  config: Pick<DeputyConfig, 'links' | 'api'>,
  webhook: string,
  notification: Notification,
  env: NodeJS.ProcessEnv = process.env,
): CardLinks | undefined {
  const card = notification.card;
  if (card === undefined || card.state.status !== 'pending') return undefined;
  if (!linkKeys(config, env).on) return undefined;
  const at = Date.parse(notification.at);
  return mintCardLinks(config, card, webhookLinkIdentity(webhook), {
    env,
    ...(Number.isNaN(at) ? {} : { now: at }),
    nonce: (decision) =>
      createHash('sha256')
        .update(`${notification.id}\n${webhook}\n${decision}`)
        .digest('base64url')
        .slice(0, 12),
  });
}
