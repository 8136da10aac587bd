/**
 * What a delegation takes from the workspace besides its tools: the approval cards' deadlines
 * (the definition's fields, else the workspace's `cards`) and which webhooks hear which events.
 * Each is absent from the snapshot when nothing applies, so older snapshots stay as they were.
 */
import type { DeputyConfig } from '../config/schema.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import type { CapabilitySnapshot, CardDeadlines } from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { parseDuration } from '../shared/duration.js';
import type { WebhookRoutes } from '../shared/workflow-contract/notifications.js';

/**
 * The card deadlines in effect: each of the definition's three fields, else the workspace's.
 * A reminder that would fire before the card opens is left out, and said so.
 */
export function cardDeadlinesOf(
  definition: LoadedDefinition['definition'],
  workspace: DeputyConfig['cards'] | undefined,
  diagnostics: Diagnostic[],
): Pick<CapabilitySnapshot, 'cardDeadlines'> {
  const timeout = definition.cardTimeout ?? workspace?.timeout;
  if (timeout === undefined) return {};
  const timeoutMs = durationMs(timeout);
  const reminder = definition.cardReminder ?? workspace?.reminder;
  const reminderMs = reminder === undefined ? undefined : durationMs(reminder);
  const deadlines: CardDeadlines = {
    timeoutMs,
    outcome: definition.cardTimeoutOutcome ?? workspace?.timeoutOutcome ?? 'deny',
    source: definition.cardTimeout === undefined ? 'workspace' : 'definition',
  };
  if (reminderMs !== undefined && reminderMs < timeoutMs) deadlines.reminderMs = reminderMs;
  else if (reminderMs !== undefined) {
    diagnostics.push({
      severity: 'warning',
      path: 'cardReminder',
      code: 'cardReminder.not-before-deadline',
      message: `cardReminder ${reminder} is not shorter than cardTimeout ${timeout}: no reminder is sent`,
    });
  }
  return { cardDeadlines: deadlines };
}

/** Which webhooks take which events; nothing when the workspace has none (replay). */
export function webhookRoutesOf(
  notifications: DeputyConfig['notifications'] | undefined,
): Pick<CapabilitySnapshot, 'webhooks'> {
  const routes: WebhookRoutes = {};
  for (const [name, webhook] of Object.entries(notifications?.webhooks ?? {})) {
    for (const event of webhook.events) (routes[event] ??= []).push(name);
  }
  return Object.keys(routes).length === 0 ? {} : { webhooks: routes };
}

/** Milliseconds of a duration already checked on load or in the configuration. */
function durationMs(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(`card deadline: ${parsed.problem}`);
  return parsed.ms;
}
