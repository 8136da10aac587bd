/*
 * Sandbox-safe (only shared imports): the one line the Temporal UI shows for a run, its
 * `staticSummary`, and the lines of its `currentDetails`. Clients build the summary for
 * delegations, forks, resumed runs and sessions; a session builds it for its Task children.
 * Whoever can open the UI reads it, and history keeps it, so secret-looking parts are masked
 * here; configured secret values are masked earlier, by the start doors (start-requests.ts),
 * since only the Node side knows them.
 */
import { redactSecretText } from '../redact.js';

/** Longest summary: one line of the UI's workflow list. */
export const SUMMARY_CHARS = 200;

/** `<who>: <text>` on one line, secrets masked, clipped to SUMMARY_CHARS; `who` alone without text. */
export function staticSummaryOf(who: string, text?: string): string {
  return oneLine(text === undefined || text.trim() === '' ? who : `${who}: ${text}`);
}

/**
 * `text` masked, its lines joined with spaces (a task's later lines still say something in one
 * line), clipped to `max` characters with `…`. For the UI's summary and details.
 */
export function oneLine(text: string, max = SUMMARY_CHARS): string {
  // Masked before clipping, so a secret cut in half at the end is still recognised whole.
  const flat = redactSecretText(text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
