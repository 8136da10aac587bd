/**
 * The workspace configuration as it is now. `.subagents/config.yaml` is watched (models, auth,
 * MCP servers, ...): code that serves a request or a delegation asks `current()` each time
 * instead of keeping the object it started with, so an edit applies to the next one without a
 * restart. An invalid edit keeps the last good configuration and is reported by `problem()`.
 */
import type { DeputyConfig } from './schema.js';

export interface ConfigProblem {
  /** What is wrong with the file on disk, safe to print (field paths, never secret values). */
  message: string;
  /** When the invalid version was first seen (ISO 8601). */
  since: string;
}

export interface LiveConfig {
  /** The last good configuration. */
  current(): DeputyConfig;
  /** Why the file on disk is not the one in use, or null when it is. */
  problem(): ConfigProblem | null;
}

/** A configuration that never changes: tests, and one-shot CLI commands. */
export function fixedConfig(config: DeputyConfig): LiveConfig {
  return { current: () => config, problem: () => null };
}

/** `config` as it is when it is already live; a plain configuration fixed (tests, one-shot commands). */
export function liveConfigOf(config: DeputyConfig | LiveConfig): LiveConfig {
  return 'current' in config ? config : fixedConfig(config);
}
