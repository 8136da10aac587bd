/**
 * The token of a one-tap link: `<payload>.<mac>`, both base64url. The payload is the
 * claims as compact JSON; the mac is HMAC-SHA256 over a versioned prefix and the payload, keyed
 * with the first of the configured link keys. Everything a link decides (the card, approve or
 * deny, the expiry, who minted it) is inside the signed payload: nothing is read from the query,
 * so changing a bit of any of it makes the token invalid.
 *
 * Verification tries every configured key (rotation: a new key is put first and signs, the old
 * one still verifies until it is removed) and compares in constant time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type LinkDecision = 'approve' | 'deny';

/** Who minted a link: a decision made with it is that identity's, rights included. */
export interface LinkIdentity {
  /** null: minted with auth off (anonymous). */
  id: string | null;
  roles: string[];
}

export interface LinkClaims {
  cardId: string;
  decision: LinkDecision;
  /** Milliseconds since the epoch, a whole second. */
  expiresAt: number;
  identity: LinkIdentity;
  /** Random (or per event) so no two links share a token. */
  nonce: string;
}

/** Why a token is refused. `expired` is only said of a token whose signature is good. */
export type LinkRefusal = 'malformed' | 'signature' | 'card' | 'expired';

export type LinkVerdict = { ok: true; claims: LinkClaims } | { ok: false; refusal: LinkRefusal };

/** Bound into the mac, so a token of another format or version never verifies as this one. */
const MAC_PREFIX = 'deputy-card-link.v1.';
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** A token longer than this is refused before any work: card ids and roles are short. */
export const MAX_TOKEN_CHARS = 2048;

interface WirePayload {
  c: string;
  d: 'a' | 'd';
  e: number;
  i: string | null;
  r: string[];
  n: string;
}

/** A fresh random nonce (72 bits). */
export function randomNonce(): string {
  return randomBytes(9).toString('base64url');
}

/** Signs `claims` with `keys[0]`. */
export function signLinkToken(claims: LinkClaims, keys: readonly string[]): string {
  const key = keys[0];
  if (key === undefined) throw new Error('no link key to sign with');
  const wire: WirePayload = {
    c: claims.cardId,
    d: claims.decision === 'approve' ? 'a' : 'd',
    e: Math.floor(claims.expiresAt / 1000),
    i: claims.identity.id,
    r: [...claims.identity.roles],
    n: claims.nonce,
  };
  const payload = Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
  return `${payload}.${macOf(payload, key).toString('base64url')}`;
}

/**
 * The claims of `token` when one of `keys` signed it, it names `cardId` and it has not expired
 * at `now` (milliseconds).
 */
export function verifyLinkToken(
  token: string,
  keys: readonly string[],
  expected: { cardId: string; now: number },
): LinkVerdict {
  if (token.length > MAX_TOKEN_CHARS) return { ok: false, refusal: 'malformed' };
  const parts = token.split('.');
  const [payload, mac] = parts;
  if (
    parts.length !== 2 ||
    payload === undefined ||
    mac === undefined ||
    !BASE64URL.test(payload) ||
    !BASE64URL.test(mac)
  ) {
    return { ok: false, refusal: 'malformed' };
  }
  const presented = Buffer.from(mac, 'base64url');
  // Every key is tried, so timing does not tell which one (or whether an old one) matched.
  let good = false;
  for (const key of keys) {
    const computed = macOf(payload, key);
    if (computed.length === presented.length && timingSafeEqual(computed, presented)) good = true;
  }
  if (!good) return { ok: false, refusal: 'signature' };
  const claims = claimsOf(payload);
  if (claims === null) return { ok: false, refusal: 'malformed' };
  if (claims.cardId !== expected.cardId) return { ok: false, refusal: 'card' };
  if (expected.now >= claims.expiresAt) return { ok: false, refusal: 'expired' };
  return { ok: true, claims };
}

function macOf(payload: string, key: string): Buffer {
  return createHmac('sha256', key).update(MAC_PREFIX).update(payload).digest();
}

/** The claims of a payload whose mac was good; null if its shape is not ours (a bug, or a future version). */
function claimsOf(payload: string): LinkClaims | null {
  let wire: unknown;
  try {
    wire = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!isWirePayload(wire)) return null;
  return {
    cardId: wire.c,
    decision: wire.d === 'a' ? 'approve' : 'deny',
    expiresAt: wire.e * 1000,
    identity: { id: wire.i, roles: wire.r },
    nonce: wire.n,
  };
}

function isWirePayload(value: unknown): value is WirePayload {
  if (typeof value !== 'object' || value === null) return false;
  const wire = value as Record<string, unknown>;
  return (
    typeof wire.c === 'string' &&
    (wire.d === 'a' || wire.d === 'd') &&
    typeof wire.e === 'number' &&
    Number.isInteger(wire.e) &&
    (wire.i === null || typeof wire.i === 'string') &&
    Array.isArray(wire.r) &&
    wire.r.every((role) => typeof role === 'string') &&
    typeof wire.n === 'string'
  );
}
