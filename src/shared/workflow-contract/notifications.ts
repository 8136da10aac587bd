/**
 * Webhook notifications: what a delegation tells the workspace's webhooks, and when.
 * Shared by the workflow (which decides to notify) and the activity (which delivers).
 */
import type { CardLinks } from '../cards/card-links.js';
import type { ApprovalCard, DelegationResult } from '../delegation.js';

export const NOTIFICATION_EVENTS = [
  'card.opened',
  'card.expiring',
  'delegation.completed',
  'delegation.failed',
  'delegation.stopped',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The body a webhook receives (masked like every other output). */
export interface Notification {
  /** Unique per event: the receiver's idempotency key (also sent as `Idempotency-Key`). */
  id: string;
  type: NotificationEvent;
  /** When the event happened (workflow time). */
  at: string;
  delegation: { delegationId: string; workflowId: string; agent: string; session: string };
  /** For `card.*`. */
  card?: ApprovalCard;
  /**
   * For `card.*` when one-tap links are configured: approve and deny URLs minted by the activity
   * that delivers it (the workflow never holds the key), deciding as `webhook:<name>`.
   */
  links?: CardLinks;
  /** For `delegation.*`. */
  result?: DelegationResult;
}

/** Webhook names by the events they take: what a delegation's snapshot records. */
export type WebhookRoutes = Partial<Record<NotificationEvent, string[]>>;

/** The workflow that delivers one notification to its webhooks (src/workflows/notify.ts). */
export const NOTIFY_WORKFLOW_TYPE = 'deliverNotification';

/** Failure types of a delivery that no retry can fix. */
export const WEBHOOK_GONE = 'WebhookGone';
export const WEBHOOK_REJECTED = 'WebhookRejected';
