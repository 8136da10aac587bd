import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { ConfigSecrets } from '../../src/config/config-secrets.js';
import {
  BLOB_STORE_URL_VARIABLE,
  environmentSecretValues,
  urlSecretValues,
} from '../../src/secrets/environment-secrets.js';
import { liveSecretMasker } from '../../src/secrets/live-masker.js';
import { configuredSecretValues, secretMaskerFor } from '../../src/secrets/masker.js';
import { REDACTED } from '../../src/shared/redact.js';

/** A configuration that names no secret: whatever is masked comes from the environment. */
const bare = { secrets: new ConfigSecrets([], new Map()), models: { catalog: {} } };
/** `p@ss/wörd+longer` percent-encoded, as `connectionUrl` and operators write it. */
const PASSWORD = 'p@ss/wörd+longer';
const URL_VALUE = `postgres://temporal:${encodeURIComponent(PASSWORD)}@db.internal:5432/deputy`;
const ENV = { [BLOB_STORE_URL_VARIABLE]: URL_VALUE };

describe('environment secrets', () => {
  it('takes the blob store URL whole, its password encoded and decoded, and user:password', () => {
    expect(urlSecretValues(URL_VALUE)).toEqual(
      expect.arrayContaining([
        URL_VALUE,
        PASSWORD,
        encodeURIComponent(PASSWORD),
        `temporal:${encodeURIComponent(PASSWORD)}`,
      ]),
    );
    expect(environmentSecretValues(ENV)).toEqual(urlSecretValues(URL_VALUE));
    expect(environmentSecretValues({})).toEqual([]);
    expect(environmentSecretValues({ [BLOB_STORE_URL_VARIABLE]: '  ' })).toEqual([]);
    // Not a URL (refused at worker start): still masked whole.
    expect(urlSecretValues('not a url but a secret')).toEqual(['not a url but a secret']);
  });

  it('is masked like configured secrets, in text, values and errors', () => {
    expect(configuredSecretValues(bare, ENV)).toEqual(
      expect.arrayContaining([URL_VALUE, PASSWORD]),
    );
    const masker = secretMaskerFor(bare, ENV);
    expect(masker.text(`connecting to ${URL_VALUE} now`)).toBe(`connecting to ${REDACTED} now`);
    expect(masker.text(`the password is ${PASSWORD}.`)).toBe(`the password is ${REDACTED}.`);
    expect(masker.text(`encoded: ${encodeURIComponent(PASSWORD)}`)).toBe(`encoded: ${REDACTED}`);
    expect(masker.value({ answer: [URL_VALUE] })).toEqual({ answer: [REDACTED] });
    const failure = ApplicationFailure.create({
      message: `could not reach ${URL_VALUE}`,
      details: [{ url: URL_VALUE }],
    });
    masker.error(failure);
    expect(failure.message).toBe(`could not reach ${REDACTED}`);
    expect(failure.stack).not.toContain(PASSWORD);
    expect(failure.details).toEqual([{ url: REDACTED }]);
  });

  it('is masked by the live masker the worker and the API use', () => {
    const masker = liveSecretMasker({ current: () => bare }, ENV);
    expect(masker.text(`DEPUTY_BLOB_STORE_URL=${URL_VALUE}`)).toBe(
      `DEPUTY_BLOB_STORE_URL=${REDACTED}`,
    );
    expect(masker.text(`no secret here`)).toBe('no secret here');
  });
});
