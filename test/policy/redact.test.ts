import { describe, expect, it } from 'vitest';
import {
  ARGUMENTS_PREVIEW_CHARS,
  argumentsPreview,
  isSecretKey,
  looksLikeSecret,
  REDACTED,
  redactSecrets,
  redactSecretText,
} from '../../src/shared/redact.js';

describe('redactSecrets', () => {
  it('replaces values of secret-looking keys, deeply, without touching the input', () => {
    const input = {
      path: 'src/a.ts',
      headers: { Authorization: 'Basic abc', 'X-Api-Key': 'k', Cookie: 'sid=1', accept: 'json' },
      env: { GITHUB_TOKEN: 'ghx', DB_PASSWORD: 'pw', passwd: 'p', HOME: '/root' },
      nested: [{ apiKey: 'a', api_key: 'b', private_key: { pem: 'x' }, clientSecret: 's' }],
      credentials: ['a', 'b'],
    };
    const copy = structuredClone(input);
    expect(redactSecrets(input)).toEqual({
      path: 'src/a.ts',
      headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, Cookie: REDACTED, accept: 'json' },
      env: { GITHUB_TOKEN: REDACTED, DB_PASSWORD: REDACTED, passwd: REDACTED, HOME: '/root' },
      nested: [
        { apiKey: REDACTED, api_key: REDACTED, private_key: REDACTED, clientSecret: REDACTED },
      ],
      credentials: REDACTED,
    });
    expect(input).toEqual(copy);
  });

  it('keeps harmless keys that merely contain a secret word', () => {
    expect(redactSecrets({ max_tokens: 100, tokenizer: 'bpe', keyboard: 'us' })).toEqual({
      max_tokens: 100,
      tokenizer: 'bpe',
      keyboard: 'us',
    });
    expect(isSecretKey('accessToken')).toBe(true);
    expect(isSecretKey('APIKey')).toBe(true);
    expect(isSecretKey('monkey')).toBe(false);
  });

  it('redacts bearer tokens and sk- keys inside any string', () => {
    expect(
      redactSecrets({
        command: "curl -H 'Authorization: Bearer eyJhbGciOi.abc.def' https://x",
        note: 'use sk-proj-abcdefghijklmnop1234 here',
        list: ['ghp_abcdefghijklmnopqrstuvwxyz0123'],
      }),
    ).toEqual({
      command: `curl -H 'Authorization: Bearer ${REDACTED}' https://x`,
      note: `use ${REDACTED} here`,
      list: [REDACTED],
    });
    expect(redactSecrets('sk-abcdefghijklmnopqrstuvwx')).toBe(REDACTED);
    expect(redactSecrets('a bearer of news, sk-short')).toBe('a bearer of news, sk-short');
  });

  it('passes primitives through and survives cycles', () => {
    expect(redactSecrets(42)).toBe(42);
    expect(redactSecrets(null)).toBe(null);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(redactSecrets(cyclic)).toEqual({ a: 1, self: '__circular__' });
  });
});

describe('redactSecrets with known values (the configured secrets, Node side only)', () => {
  const known = ['planted-value-one', 'planted-value-one-longer', 'tiny'];

  it('cuts every known value out of strings and keys, longest first', () => {
    expect(
      redactSecrets(
        {
          path: 'notes.md',
          content: 'a planted-value-one-longer and a planted-value-one, tiny stays',
          ['planted-value-one']: ['x planted-value-one y'],
        },
        { known },
      ),
    ).toEqual({
      path: 'notes.md',
      content: `a ${REDACTED} and a ${REDACTED}, tiny stays`,
      [REDACTED]: [`x ${REDACTED} y`],
    });
    expect(redactSecretText('Bearer planted-value-one', known)).toBe(`Bearer ${REDACTED}`);
  });

  it('judges only strings with byKey false, so a structure keeps its shape', () => {
    expect(
      redactSecrets({ token: 'shown', password: 'planted-value-one' }, { known, byKey: false }),
    ).toEqual({ token: 'shown', password: REDACTED });
  });

  it('does what it always did without options (the workflow passes none)', () => {
    const args = { token: 'planted-value-one', note: 'planted-value-one' };
    expect(redactSecrets(args)).toEqual({ token: REDACTED, note: 'planted-value-one' });
  });

  it('tells a secret-looking string from an ordinary one', () => {
    expect(looksLikeSecret('Bearer abcdefgh12345')).toBe(true);
    expect(looksLikeSecret('ghp_abcdefghijklmnopqrstuvwxyz0123')).toBe(true);
    expect(looksLikeSecret('Bearer ')).toBe(false);
    expect(looksLikeSecret('application/json')).toBe(false);
  });
});

describe('argumentsPreview', () => {
  it('is the arguments as JSON with secrets redacted, cut with an ellipsis when long', () => {
    expect(argumentsPreview({ path: 'a.txt', apiKey: 'sk-123' })).toBe(
      `{"path":"a.txt","apiKey":"${REDACTED}"}`,
    );
    expect(argumentsPreview(undefined)).toBe('{}');
    const long = argumentsPreview({ content: 'x'.repeat(5000) });
    expect(long).toHaveLength(ARGUMENTS_PREVIEW_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(long.startsWith('{"content":"xxx')).toBe(true);
  });
});
