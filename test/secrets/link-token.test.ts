/**
 * One-tap link tokens: what a token binds (card, decision, expiry, minter), that any
 * change to it is refused, expiry, and key rotation (the first key signs, every key verifies, a
 * removed key's tokens stop working). Also the key settings and the masker's part.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_TOKEN_CHARS,
  signLinkToken,
  verifyLinkToken,
  type LinkClaims,
} from '../../src/secrets/link-token.js';
import { linkKeys, linkKeyValues, MIN_LINK_KEY_CHARS } from '../../src/secrets/link-keys.js';
import { linkBaseUrl, linkExpiresAt } from '../../src/secrets/link-settings.js';
import { mintCardLinks } from '../../src/secrets/link-mint.js';
import { configuredSecretValues, createSecretMasker } from '../../src/secrets/masker.js';
import { ConfigSecrets } from '../../src/config/config-secrets.js';

const OLD_KEY = 'old-key-0123456789abcdef0123456789abcdef';
const NEW_KEY = 'new-key-fedcba9876543210fedcba9876543210';
const NOW = Date.parse('2026-12-02T12:00:00Z');
const CARD = 'd-1234.1';

const claims = (overrides: Partial<LinkClaims> = {}): LinkClaims => ({
  cardId: CARD,
  decision: 'approve',
  expiresAt: NOW + 60_000,
  identity: { id: 'olga', roles: ['ops'] },
  nonce: 'n0nce',
  ...overrides,
});

const verify = (token: string, keys: string[], now = NOW, cardId = CARD) =>
  verifyLinkToken(token, keys, { cardId, now });

/** Flips one character of `text` at `index` to another base64url character. */
function flip(text: string, index: number): string {
  const swapped = text[index] === 'A' ? 'B' : 'A';
  return `${text.slice(0, index)}${swapped}${text.slice(index + 1)}`;
}

describe('link tokens', () => {
  it('round-trips the claims a token was signed with', () => {
    const token = signLinkToken(claims({ decision: 'deny' }), [OLD_KEY]);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verify(token, [OLD_KEY])).toEqual({ ok: true, claims: claims({ decision: 'deny' }) });
  });

  it('refuses a token with any character of its payload or mac changed', () => {
    const token = signLinkToken(claims(), [OLD_KEY]);
    const dot = token.indexOf('.');
    for (const index of [0, Math.floor(dot / 2), dot - 1, dot + 1, token.length - 2]) {
      const verdict = verify(flip(token, index), [OLD_KEY]);
      expect(verdict.ok, `changed at ${index}`).toBe(false);
    }
  });

  it('refuses a token whose decision was rewritten, even with a well-formed payload', () => {
    const token = signLinkToken(claims({ decision: 'deny' }), [OLD_KEY]);
    const [payload, mac] = token.split('.') as [string, string];
    const wire = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { d: string };
    wire.d = 'a';
    const forged = `${Buffer.from(JSON.stringify(wire)).toString('base64url')}.${mac}`;
    expect(verify(forged, [OLD_KEY])).toEqual({ ok: false, refusal: 'signature' });
  });

  it('refuses malformed tokens, another card, and expired ones', () => {
    expect(verify('', [OLD_KEY])).toEqual({ ok: false, refusal: 'malformed' });
    expect(verify('a.b.c', [OLD_KEY])).toEqual({ ok: false, refusal: 'malformed' });
    expect(verify('a b.c', [OLD_KEY])).toEqual({ ok: false, refusal: 'malformed' });
    expect(verify(`${'a'.repeat(MAX_TOKEN_CHARS)}.b`, [OLD_KEY])).toEqual({
      ok: false,
      refusal: 'malformed',
    });
    const token = signLinkToken(claims(), [OLD_KEY]);
    expect(verify(token, [OLD_KEY], NOW, 'd-1234.2')).toEqual({ ok: false, refusal: 'card' });
    expect(verify(token, [OLD_KEY], NOW + 59_999).ok).toBe(true);
    expect(verify(token, [OLD_KEY], NOW + 60_000)).toEqual({ ok: false, refusal: 'expired' });
    // A signature that is not ours is refused as such, whatever the expiry says.
    expect(verify(token, [NEW_KEY], NOW + 60_000)).toEqual({ ok: false, refusal: 'signature' });
  });

  it('rotates: the new first key signs, the old one still verifies, a removed key fails', () => {
    const before = signLinkToken(claims(), [OLD_KEY]);
    const rotated = [NEW_KEY, OLD_KEY];
    const after = signLinkToken(claims(), rotated);
    expect(verify(after, [NEW_KEY]).ok).toBe(true);
    expect(verify(after, [OLD_KEY])).toEqual({ ok: false, refusal: 'signature' });
    expect(verify(before, rotated).ok).toBe(true);
    expect(verify(after, rotated).ok).toBe(true);
    // The old key removed: its links stop working, the new key's go on.
    expect(verify(before, [NEW_KEY])).toEqual({ ok: false, refusal: 'signature' });
    expect(verify(after, [NEW_KEY]).ok).toBe(true);
  });
});

describe('link keys and settings', () => {
  const api = { host: '127.0.0.1', port: 4780 };

  it('reads DEPUTY_LINK_SECRET by default, a named list in order, commas within a value', () => {
    expect(linkKeys({}, { DEPUTY_LINK_SECRET: OLD_KEY })).toEqual({ on: true, keys: [OLD_KEY] });
    const links = { secretEnv: ['LINK_NEW', 'LINK_OLD'] };
    expect(linkKeys({ links }, { LINK_NEW: NEW_KEY, LINK_OLD: OLD_KEY })).toEqual({
      on: true,
      keys: [NEW_KEY, OLD_KEY],
    });
    // An unset first variable: the next one signs.
    expect(linkKeys({ links }, { LINK_OLD: OLD_KEY })).toEqual({ on: true, keys: [OLD_KEY] });
    expect(linkKeys({}, { DEPUTY_LINK_SECRET: `${NEW_KEY}, ${OLD_KEY}` })).toEqual({
      on: true,
      keys: [NEW_KEY, OLD_KEY],
    });
  });

  it('is off without a key, or with a short one, and says which variable without its value', () => {
    const off = linkKeys({}, {});
    expect(off.on).toBe(false);
    expect(!off.on && off.reason).toContain('DEPUTY_LINK_SECRET');
    const short = 'x'.repeat(MIN_LINK_KEY_CHARS - 1);
    const refused = linkKeys({ links: { secretEnv: 'MY_LINK_KEY' } }, { MY_LINK_KEY: short });
    expect(refused.on).toBe(false);
    expect(!refused.on && refused.reason).toContain('MY_LINK_KEY');
    expect(!refused.on && refused.reason).not.toContain(short);
    expect(() =>
      mintCardLinks({ api }, { id: CARD }, { id: null, roles: [] }, { env: {} }),
    ).toThrow(/one-tap links are off/);
  });

  it('masks every key, whole values and each key of a list, with or without a links section', () => {
    const secrets = new ConfigSecrets([], new Map());
    const env = { DEPUTY_LINK_SECRET: `${NEW_KEY},${OLD_KEY}`, OTHER: OLD_KEY };
    const values = configuredSecretValues({ secrets, models: { catalog: {} } }, env);
    const masker = createSecretMasker(values);
    expect(masker.text(`a ${OLD_KEY} b ${NEW_KEY}`)).toBe('a __redacted__ b __redacted__');
    expect(linkKeyValues({ links: { secretEnv: 'OTHER' } }, env)).toEqual([OLD_KEY]);
  });

  it('points at DEPUTY_PUBLIC_URL, else links.publicUrl, else the API host and port', () => {
    expect(linkBaseUrl({ api }, {})).toBe('http://127.0.0.1:4780');
    expect(linkBaseUrl({ api: { host: '0.0.0.0', port: 80 } }, {})).toBe('http://127.0.0.1:80');
    expect(linkBaseUrl({ api: { host: '::1', port: 80 } }, {})).toBe('http://[::1]:80');
    const links = { publicUrl: 'https://deputy.example.com/prefix/' };
    expect(linkBaseUrl({ api, links }, {})).toBe('https://deputy.example.com/prefix');
    expect(linkBaseUrl({ api, links }, { DEPUTY_PUBLIC_URL: 'https://other.example' })).toBe(
      'https://other.example',
    );
  });

  it("expires after links.expiry (default 24 h) or at the card's deadline, whichever is sooner", () => {
    expect(linkExpiresAt({}, {}, NOW)).toBe(NOW + 24 * 3_600_000);
    expect(linkExpiresAt({ links: { expiry: '2h' } }, {}, NOW)).toBe(NOW + 2 * 3_600_000);
    const deadline = new Date(NOW + 90_500).toISOString();
    expect(linkExpiresAt({ links: { expiry: '2h' } }, { deadline }, NOW)).toBe(NOW + 90_000);
  });

  it('mints approve and deny URLs whose tokens verify for their own decision', () => {
    const env = { DEPUTY_LINK_SECRET: OLD_KEY };
    const links = mintCardLinks(
      { api },
      { id: CARD },
      { id: 'olga', roles: ['ops'] },
      { env, now: NOW },
    );
    expect(links.expiresAt).toBe(new Date(NOW + 24 * 3_600_000).toISOString());
    for (const decision of ['approve', 'deny'] as const) {
      const url = new URL(links[decision]);
      expect(url.origin).toBe('http://127.0.0.1:4780');
      const [, cards, card, word, token] = url.pathname.split('/');
      expect([cards, decodeURIComponent(card!), word]).toEqual(['cards', CARD, 'links']);
      const verdict = verify(token!, [OLD_KEY]);
      expect(verdict.ok && verdict.claims.decision).toBe(decision);
      expect(verdict.ok && verdict.claims.identity).toEqual({ id: 'olga', roles: ['ops'] });
    }
    expect(links.approve).not.toBe(links.deny);
  });
});
