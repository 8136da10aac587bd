/**
 * When the pool tries a server again after a failed attempt or a lost connection: soon at first
 * (a server that crashed or is still starting is usually back within a moment), then less and
 * less often, so a server that stays down costs a spawn or a request every `maxMs` at most, not
 * every few seconds forever. Each wait is jittered downwards (never above its nominal value) so
 * the servers of many workers that lost the same dependency do not retry in step; a good
 * connection starts the sequence over.
 */

export interface ReconnectPolicy {
  /** The wait before the first retry, ms (`mcpReconnectSeconds`). */
  firstMs: number;
  /** The longest wait between two attempts, ms; never below `firstMs`. */
  maxMs: number;
}

/** First retry a quarter second after the failure; at most 30 s apart after that. */
export const DEFAULT_RECONNECT: ReconnectPolicy = { firstMs: 250, maxMs: 30_000 };

/** The share of a wait that jitter may take off: each wait is 75 % to 100 % of its nominal. */
export const RECONNECT_JITTER = 0.25;

/**
 * The nominal wait before retry number `retry` (1 for the first retry after a failure): `firstMs`
 * doubled at each further retry, up to the cap.
 */
export function nominalReconnectMs(retry: number, policy: ReconnectPolicy): number {
  const cap = Math.max(policy.firstMs, policy.maxMs);
  // 2^30 already exceeds any cap a timer can hold; the exponent stops there.
  const doubled = policy.firstMs * 2 ** Math.min(Math.max(retry - 1, 0), 30);
  return Math.min(cap, doubled);
}

/** The wait before retry number `retry`, jittered: `random()` in [0, 1) takes up to 25 % off. */
export function reconnectDelayMs(
  retry: number,
  policy: ReconnectPolicy,
  random: () => number = Math.random,
): number {
  return Math.round(nominalReconnectMs(retry, policy) * (1 - RECONNECT_JITTER * random()));
}
