import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { maskedLogger } from '../../src/secrets/masked-logger.js';
import {
  configuredSecretValues,
  createSecretMasker,
  secretMaskerFor,
} from '../../src/secrets/masker.js';
import { REDACTED } from '../../src/shared/redact.js';

function configWith(yaml: string) {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-masker-'));
  mkdirSync(join(workspace, '.subagents'));
  writeFileSync(join(workspace, '.subagents', 'config.yaml'), yaml);
  return loadConfig({ workspace }, { DEPUTY_USER_DIR: '/nonexistent' });
}

const config = configWith(`
models:
  catalog:
    named: { provider: openai, model: m, apiKeyEnv: NAMED_KEY }
    openai: { provider: openai, model: m }
    local: { provider: openai, model: m, baseUrl: http://127.0.0.1:11434/v1 }
mcpServers:
  vault:
    transport: stdio
    env: { VAULT_TOKEN: literal-vault-token, VAULT_ADDR: "\${VAULT_ADDR_VAR}" }
auth:
  tokens:
    ADMIN_TOKEN: { user: alice, roles: [admin] }
`);

const ENV = {
  NAMED_KEY: 'named-api-key-value',
  OPENAI_API_KEY: 'conventional-openai-key',
  VAULT_ADDR_VAR: 'https://vault.internal:8200',
  ADMIN_TOKEN: 'admin-bearer-token',
  UNRELATED: 'not-a-configured-secret',
};

describe('configured secret values', () => {
  it('are the literals plus the values of every variable the configuration names', () => {
    expect(configuredSecretValues(config, ENV).sort()).toEqual(
      [
        'literal-vault-token',
        ENV.NAMED_KEY,
        ENV.OPENAI_API_KEY,
        ENV.VAULT_ADDR_VAR,
        ENV.ADMIN_TOKEN,
      ].sort(),
    );
    // Unset variables add nothing.
    expect(configuredSecretValues(config, {})).toEqual(['literal-vault-token']);
  });

  it("include the providers' key variables when no catalog entry is sent a key", () => {
    // Local endpoints only: neither entry is sent a key, yet the worker's environment holds them.
    const local = configWith(`
models:
  catalog:
    llama: { provider: openai, model: m, baseUrl: http://127.0.0.1:8080/v1 }
    messages: { provider: anthropic, model: m, baseUrl: http://127.0.0.1:8080 }
`);
    const env = { OPENAI_API_KEY: 'openai-key-in-env', ANTHROPIC_API_KEY: 'anthropic-key-in-env' };
    expect(configuredSecretValues(local, env).sort()).toEqual(
      ['anthropic-key-in-env', 'openai-key-in-env'].sort(),
    );
    expect(secretMaskerFor(local, env).text('env: anthropic-key-in-env')).toBe(`env: ${REDACTED}`);
  });

  it('are masked in text, and in every string of a structure without changing its shape', () => {
    const masker = secretMaskerFor(config, ENV);
    expect(masker.text(`key=${ENV.NAMED_KEY}; token ${ENV.ADMIN_TOKEN}!`)).toBe(
      `key=${REDACTED}; token ${REDACTED}!`,
    );
    expect(masker.text(`keep ${ENV.UNRELATED}`)).toBe(`keep ${ENV.UNRELATED}`);
    const answer = {
      text: `vault at ${ENV.VAULT_ADDR_VAR}`,
      token: 'a harmless value under a secret-named key',
      cards: [{ arguments: { content: 'literal-vault-token and sk-abcdefghijklmnopqrstuv' } }],
      [`by-${ENV.ADMIN_TOKEN}`]: 1,
      count: 3,
    };
    expect(masker.value(answer)).toEqual({
      text: `vault at ${REDACTED}`,
      token: 'a harmless value under a secret-named key',
      cards: [{ arguments: { content: `${REDACTED} and ${REDACTED}` } }],
      [`by-${REDACTED}`]: 1,
      count: 3,
    });
  });

  it('cut the longest value first and ignore values too short to mask', () => {
    const masker = createSecretMasker(['abcdefgh', 'abcdefgh-and-more', 'short']);
    expect(masker.text('abcdefgh-and-more / abcdefgh / short')).toBe(
      `${REDACTED} / ${REDACTED} / short`,
    );
  });

  it('are masked in an error in place: message, stack, details and causes', () => {
    const masker = createSecretMasker(['secret-in-error-1', 'secret-in-cause-2']);
    const cause = new Error('cause carried secret-in-cause-2');
    const failure = ApplicationFailure.create({
      message: 'failed with secret-in-error-1',
      type: 'X',
      details: [{ echo: 'secret-in-error-1' }],
      cause,
    });
    expect(masker.error(failure)).toBe(failure);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure.message).toBe(`failed with ${REDACTED}`);
    expect(failure.stack).not.toContain('secret-in-error-1');
    expect(failure.details).toEqual([{ echo: REDACTED }]);
    expect(cause.message).toBe(`cause carried ${REDACTED}`);
    expect(masker.error('thrown secret-in-error-1')).toBe(`thrown ${REDACTED}`);
  });

  it('are masked in every line a masked logger writes', () => {
    const lines: string[] = [];
    const logger = maskedLogger(
      {
        error: (message, error) => lines.push(`${message} | ${(error as Error).message}`),
        warn: (message) => lines.push(message),
        info: (message) => lines.push(message),
      },
      secretMaskerFor(config, ENV),
    );
    logger.error(`internal error on ${ENV.ADMIN_TOKEN}`, new Error(`boom ${ENV.NAMED_KEY}`));
    logger.warn(`warn ${ENV.OPENAI_API_KEY}`);
    logger.info('info literal-vault-token');
    expect(lines).toEqual([
      `internal error on ${REDACTED} | boom ${REDACTED}`,
      `warn ${REDACTED}`,
      `info ${REDACTED}`,
    ]);
  });
});

describe("deputy's own MCP bearer token", () => {
  it('is masked like every configured secret (it is sent to auth: bearer servers)', () => {
    const config = loadConfig({ workspace: mkdtempSync(join(tmpdir(), 'deputy-bearer-')) }, {});
    const token = 'mcp-bearer-4b2c9d8e7f6a';
    const masker = secretMaskerFor(config, { DEPUTY_MCP_TOKEN: token });
    expect(masker.text(`sent ${token} upstream`)).toBe('sent __redacted__ upstream');
  });
});
