/**
 * Delivers one notification to one webhook: a signed POST, retried by Temporal with backoff
 * until the receiver takes it (src/workflows/notify.ts). The body is masked like every other
 * output; the signing secret is read from the variable the configuration names and never leaves
 * the process except as the HMAC it produces.
 */
import { createHmac } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { DeputyConfig } from '../config/schema.js';
import type { SecretMasker } from '../secrets/masker.js';
import {
  WEBHOOK_GONE,
  WEBHOOK_REJECTED,
  type Notification,
} from '../shared/workflow-contract/notifications.js';
import { webhookCardLinks } from './webhook-card-links.js';

export interface DeliverWebhookInput {
  webhook: string;
  notification: Notification;
}

/** One attempt's bound: a receiver that hangs is retried like one that is down. */
const ATTEMPT_TIMEOUT_MS = 10_000;

export const SIGNATURE_HEADER = 'x-deputy-signature';

/** `sha256=<hex>` of the raw body with the secret: what a receiver recomputes to trust it. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export async function deliverWebhookActivity(
  config: Pick<DeputyConfig, 'notifications' | 'links' | 'api'>,
  { webhook: name, notification }: DeliverWebhookInput,
  secrets: SecretMasker,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const webhook = config.notifications.webhooks[name];
  if (webhook === undefined) {
    throw ApplicationFailure.nonRetryable(
      `webhook '${name}' is no longer configured: notification ${notification.id} is dropped`,
      WEBHOOK_GONE,
    );
  }
  // One-tap links are added after masking: a token is no secret value, but it must arrive whole.
  const links = webhookCardLinks(config, name, notification, env);
  const body = JSON.stringify({
    ...secrets.value(notification),
    ...(links === undefined ? {} : { links }),
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'idempotency-key': notification.id,
    'x-deputy-event': notification.type,
  };
  if (webhook.secretEnv !== undefined) {
    const secret = env[webhook.secretEnv];
    // Retried, not dropped: set the variable and restart the worker, and the next attempt signs.
    if (secret === undefined || secret === '') {
      throw ApplicationFailure.retryable(
        `webhook '${name}': ${webhook.secretEnv} (its secretEnv) is not set, so the notification cannot be signed`,
      );
    }
    headers[SIGNATURE_HEADER] = signatureOf(body, secret);
  }
  let response: Response;
  try {
    response = await fetch(webhook.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
  } catch (error) {
    throw ApplicationFailure.retryable(
      `webhook '${name}' unreachable: ${secrets.text((error as Error).message)}`,
    );
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.ok) return;
  const what = `webhook '${name}' answered ${response.status} to notification ${notification.id}`;
  // 408 and 429 say "later"; any other 4xx says the receiver will never take it.
  if (response.status >= 400 && response.status < 500 && ![408, 429].includes(response.status)) {
    throw ApplicationFailure.nonRetryable(what, WEBHOOK_REJECTED);
  }
  throw ApplicationFailure.retryable(what);
}
