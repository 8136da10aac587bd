/**
 * Delegation ids, session ids and the visibility queries built from them. Ids end up inside
 * workflow ids and visibility queries, so they are held to a small alphabet: nothing a user
 * types can change the meaning of a query.
 */
import { randomBytes } from 'node:crypto';
import { DeputyError } from '../../errors.js';

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Agent names as definitions allow them (src/definitions/names.ts). */
export const AGENT_NAME_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

export const DEFAULT_SESSION = 'default';

export function isValidId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** Throws `invalid` naming the field when `value` is not a usable id. */
export function assertValidId(field: string, value: string): void {
  if (!isValidId(value)) {
    const message = `${field} '${value.slice(0, 80)}' is not valid: use 1-64 letters, digits, '_' or '-', starting with a letter or digit`;
    throw new DeputyError('invalid', message, { issues: [{ path: field, message }] });
  }
}

/** Throws `invalid` when `agent` is not such a name (it enters search attributes and queries). */
export function assertValidAgentName(agent: string): void {
  if (!AGENT_NAME_PATTERN.test(agent)) {
    throw new DeputyError('invalid', `agent name '${agent.slice(0, 80)}' is not valid`);
  }
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `d-` and 12 random base36 characters (~62 bits). */
export function newDelegationId(): string {
  return randomId('d');
}

/** `s-` and 12 random base36 characters: a session id never looks like a delegation id. */
export function newSessionId(): string {
  return randomId('s');
}

function randomId(prefix: string): string {
  const bytes = randomBytes(12);
  let suffix = '';
  // 256 % 36 leaves a tiny bias; ids need to be unique, not uniform.
  for (const byte of bytes) suffix += BASE36[byte % 36];
  return `${prefix}-${suffix}`;
}

/** A visibility-query string literal. Inputs are validated first; escaping is the second fence. */
export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
