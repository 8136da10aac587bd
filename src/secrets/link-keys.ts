/**
 * The keys that sign and verify one-tap links, read from the environment variables the
 * configuration names (`links.secretEnv`, default DEPUTY_LINK_SECRET) at the moment they are used,
 * never stored in the configuration. No key: links are off, and whatever would mint or open one
 * says so. A key too short to mask (and to trust) turns them off too, naming the variable only.
 */
import type { DeputyConfig } from '../config/schema.js';

/** The variable read when the configuration names none. */
export const LINK_SECRET_VARIABLE = 'DEPUTY_LINK_SECRET';

/** Shortest key accepted: 32 characters (e.g. `openssl rand -base64 32` gives 44). */
export const MIN_LINK_KEY_CHARS = 32;

export type LinkKeys = { on: true; keys: string[] } | { on: false; reason: string };

type LinksPart = Pick<DeputyConfig, 'links'>;

/** The variables holding link keys, in order (the first key found signs). */
export function linkKeyVariables(config: LinksPart): string[] {
  const named = config.links?.secretEnv;
  if (named === undefined) return [LINK_SECRET_VARIABLE];
  return typeof named === 'string' ? [named] : [...named];
}

/** Each set variable's keys, in order: a value may hold several, separated by commas. */
function keysByVariable(
  config: LinksPart,
  env: NodeJS.ProcessEnv,
): Array<{ variable: string; keys: string[] }> {
  return linkKeyVariables(config).flatMap((variable) => {
    const keys = (env[variable] ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== '');
    return keys.length === 0 ? [] : [{ variable, keys }];
  });
}

export function linkKeys(config: LinksPart, env: NodeJS.ProcessEnv = process.env): LinkKeys {
  const found = keysByVariable(config, env);
  const variables = linkKeyVariables(config).join(', ');
  if (found.length === 0) {
    return {
      on: false,
      reason: `one-tap links are off: no signing key is set (set ${variables} to a random value of at least ${MIN_LINK_KEY_CHARS} characters)`,
    };
  }
  const short = found.find(({ keys }) => keys.some((key) => key.length < MIN_LINK_KEY_CHARS));
  if (short !== undefined) {
    return {
      on: false,
      reason: `one-tap links are off: a key in ${short.variable} is shorter than ${MIN_LINK_KEY_CHARS} characters`,
    };
  }
  return { on: true, keys: found.flatMap(({ keys }) => keys) };
}

/**
 * Every value the masker must cut out (src/secrets/masker.ts): each variable's whole value and
 * each key in it, so a log line that quotes one key of a rotation list is masked too.
 */
export function linkKeyValues(config: LinksPart, env: NodeJS.ProcessEnv = process.env): string[] {
  return linkKeyVariables(config).flatMap((variable) => {
    const value = env[variable];
    if (value === undefined || value.trim() === '') return [];
    const keys = value
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== '');
    return [...new Set([value, ...keys])];
  });
}
