/**
 * Ids taken from the path, checked before anything asks Temporal. A delegation or card id that
 * cannot exist (too long, outside the id alphabet) is 404 like any unknown one: nothing was
 * found, and the caller learns that without a round trip. A session is a filter, not a resource
 * (any well-formed session has a card list, maybe empty), so a malformed one is 422. Messages
 * quote at most the first 64 characters of what was sent.
 */
import type { Context } from 'hono';
import { delegationIdOfCard } from '../../shared/delegation.js';
import { DeputyError } from '../../errors.js';
import { isValidId } from '../../temporal/delegations/ids.js';
import { clip } from '../../shared/clip.js';

/** Card sequence numbers are small integers; ten digits is more than any delegation opens. */
const MAX_CARD_SEQUENCE_DIGITS = 10;

export function delegationIdParam(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!isValidId(id)) {
    throw new DeputyError('not-found', `no delegation with id '${clip(id, 64)}'`);
  }
  return id;
}

export function cardIdParam(c: Context): string {
  const id = c.req.param('id') ?? '';
  const delegationId = delegationIdOfCard(id);
  const sequence = delegationId === null ? '' : id.slice(delegationId.length + 1);
  if (
    delegationId === null ||
    !isValidId(delegationId) ||
    sequence.length > MAX_CARD_SEQUENCE_DIGITS
  ) {
    throw new DeputyError('not-found', `no approval card with id '${clip(id, 64)}'`);
  }
  return id;
}

export function sessionIdParam(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!isValidId(id)) {
    const message = `session '${clip(id, 64)}' is not valid: use 1-64 letters, digits, '_' or '-', starting with a letter or digit`;
    throw new DeputyError('invalid', message, { issues: [{ path: 'session', message }] });
  }
  return id;
}
