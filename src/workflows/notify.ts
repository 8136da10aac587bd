/**
 * Notifications: a delegation tells the workspace's webhooks of its cards and of how
 * it ended by starting one `deliverNotification` workflow per event. That workflow outlives the
 * delegation (parent-close policy ABANDON) and retries each webhook with backoff for a day, so
 * a receiver that is down gets it later; its id is the event's, so no event starts two.
 * Sandbox code.
 */
import {
  ApplicationFailure,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { DeputyActivities } from '../activities/index.js';
import type { ResolvedAgent } from '../shared/workflow-contract/activities.js';
import type { ApprovalCard, DelegationResult } from '../shared/delegation.js';
import {
  NOTIFY_WORKFLOW_TYPE,
  WEBHOOK_GONE,
  WEBHOOK_REJECTED,
  type Notification,
  type NotificationEvent,
} from '../shared/workflow-contract/notifications.js';
import type { DelegationRun } from './delegation-run.js';

const { deliverWebhook } = proxyActivities<DeputyActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '1 day',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    nonRetryableErrorTypes: [WEBHOOK_GONE, WEBHOOK_REJECTED],
  },
});

/**
 * Delivers one notification to each of its webhooks, independently: one that rejects it does
 * not cut the others' retries short (the run waits for all of them), and then fails the run,
 * naming which, so the Temporal UI shows the undelivered ones.
 */
export async function deliverNotification(
  notification: Notification,
  webhooks: string[],
): Promise<void> {
  const outcomes = await Promise.allSettled(
    webhooks.map((webhook) => deliverWebhook({ webhook, notification })),
  );
  const failed = webhooks.filter((_, index) => outcomes[index]!.status === 'rejected');
  if (failed.length > 0) {
    throw ApplicationFailure.nonRetryable(
      `notification ${notification.id} was not delivered to ${failed.join(', ')}`,
      'NotificationUndelivered',
    );
  }
}

/** What an event is about: a card, or the delegation's result. */
export type NotificationSubject = { card: ApprovalCard } | { result: DelegationResult };

/**
 * Notifies the webhooks the snapshot routes `type` to; nothing when none (no command at all, so
 * runs without webhooks keep their histories). Returns once the delivery workflow has started.
 */
export async function notify(
  run: DelegationRun,
  resolved: ResolvedAgent,
  type: NotificationEvent,
  subject: NotificationSubject,
): Promise<void> {
  const webhooks = resolved.snapshot.webhooks?.[type];
  if (webhooks === undefined || webhooks.length === 0) return;
  const delegation = run.identity();
  const about = 'card' in subject ? subject.card.id : 'run';
  const id = `${delegation.workflowId}/${type}/${about}`;
  const notification: Notification = {
    id,
    type,
    at: new Date().toISOString(),
    delegation,
    ...subject,
  };
  await startChild(NOTIFY_WORKFLOW_TYPE, {
    workflowId: `notify/${id}`,
    args: [notification, webhooks],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
  });
}
