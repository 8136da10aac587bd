import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { scanConfigSecrets } from '../../src/config/config-secrets.js';

/** A real workspace in the temp directory with this config.yaml. */
function workspaceWith(yaml: string): string {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-config-secrets-'));
  mkdirSync(join(workspace, '.subagents'));
  writeFileSync(join(workspace, '.subagents', 'config.yaml'), yaml);
  return workspace;
}

const LITERALS = {
  envToken: 'env-token-literal-1234',
  bearer: 'header-bearer-literal-5678',
  apiKey: 'sk-proj-abcdefghijklmnop1234',
  ghArg: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
  apiKeyHeader: 'x-api-key-literal-9012',
};

const CONFIG = `
models:
  catalog:
    openai/gpt:
      provider: openai
      model: gpt-4o-mini
      apiKeyEnv: OPENAI_KEY_VARIABLE
      apiKey: ${LITERALS.apiKey}
mcpServers:
  github:
    transport: stdio
    command: github-mcp
    args: [--token, ${LITERALS.ghArg}]
    env:
      GITHUB_TOKEN: ${LITERALS.envToken}
      GITHUB_SECRET: \${GITHUB_SECRET}
      LOG_LEVEL: debug
  remote:
    transport: http
    endpoint: https://mcp.example.com/
    headers:
      Authorization: Bearer ${LITERALS.bearer}
      X-Api-Key: ${LITERALS.apiKeyHeader}
      Accept: application/json
  referenced:
    transport: http
    endpoint: https://mcp.example.com/
    headers:
      Authorization: Bearer \${REMOTE_TOKEN}
      X-Api-Key: \${REMOTE_KEY}
auth:
  tokens:
    DEPUTY_ADMIN_TOKEN: { user: alice, roles: [admin] }
`;

describe('secrets in the configuration file', () => {
  it('warns about each literal secret by field, never by value, and loads anyway', () => {
    const config = loadConfig(
      { workspace: workspaceWith(CONFIG) },
      { DEPUTY_USER_DIR: '/nonexistent' },
    );
    expect(config.warnings).toEqual([
      'models.catalog.openai/gpt.apiKey holds a literal secret; put it in an environment variable and name that variable with apiKeyEnv',
      'mcpServers.github.args.1 holds a literal secret; write ${GITHUB_ARGS} and set it in the environment',
      'mcpServers.github.env.GITHUB_TOKEN holds a literal secret; write ${GITHUB_TOKEN} and set it in the environment',
      'mcpServers.remote.headers.Authorization holds a literal secret; write Bearer ${REMOTE_AUTHORIZATION} and set it in the environment',
      'mcpServers.remote.headers.X-Api-Key holds a literal secret; write ${REMOTE_X_API_KEY} and set it in the environment',
    ]);
    const printed = config.warnings.join('\n');
    for (const value of Object.values(LITERALS)) expect(printed).not.toContain(value);
    // Validation still strips the unknown key; the scan saw the raw file.
    expect(config.models.catalog['openai/gpt']).not.toHaveProperty('apiKey');
  });

  it('knows the literal values and the variables it names, and never prints the values', () => {
    const config = loadConfig(
      { workspace: workspaceWith(CONFIG) },
      { DEPUTY_USER_DIR: '/nonexistent' },
    );
    expect(config.secrets.literals()).toEqual(
      expect.arrayContaining([...Object.values(LITERALS), `Bearer ${LITERALS.bearer}`]),
    );
    expect(Object.fromEntries(config.secrets.variables)).toEqual({
      OPENAI_KEY_VARIABLE: 'models.catalog.openai/gpt.apiKeyEnv',
      GITHUB_SECRET: 'mcpServers.github.env.GITHUB_SECRET',
      REMOTE_TOKEN: 'mcpServers.referenced.headers.Authorization',
      REMOTE_KEY: 'mcpServers.referenced.headers.X-Api-Key',
      DEPUTY_ADMIN_TOKEN: 'auth.tokens.DEPUTY_ADMIN_TOKEN',
    });
    // Only the catalog key is nowhere else in the loaded configuration (validation dropped it).
    expect(JSON.stringify(config)).not.toContain(LITERALS.apiKey);
    expect(inspect(config, { depth: 10 })).not.toContain(LITERALS.apiKey);
  });

  it('takes references, schemes in front of them and *Env names as they are', () => {
    const { warnings, secrets } = scanConfigSecrets({
      mcpServers: {
        a: { env: { TOKEN: '${A_TOKEN}', PASSWORD: '' }, headers: { Cookie: 'Basic ${C}' } },
      },
      models: { catalog: { x: { apiKeyEnv: 'X_KEY' } } },
    });
    expect(warnings).toEqual([]);
    expect(secrets.literals()).toEqual([]);
    expect([...secrets.variables.keys()]).toEqual(['A_TOKEN', 'C', 'X_KEY']);
  });

  it('treats a number under a secret-named key as a literal', () => {
    const { warnings } = scanConfigSecrets({
      mcpServers: { a: { env: { PIN_PASSWORD: 12345678 } } },
    });
    expect(warnings).toEqual([
      'mcpServers.a.env.PIN_PASSWORD holds a literal secret; write ${PIN_PASSWORD} and set it in the environment',
    ]);
  });

  it('warns when a referenced value is too short to be masked', () => {
    const config = loadConfig(
      { workspace: workspaceWith(CONFIG) },
      { DEPUTY_USER_DIR: '/nonexistent', REMOTE_KEY: 'short', REMOTE_TOKEN: 'long-enough-token' },
    );
    expect(config.warnings.filter((warning) => warning.includes('too short'))).toEqual([
      'mcpServers.referenced.headers.X-Api-Key: the value of REMOTE_KEY is shorter than 8 characters, too short to be masked in what deputy records, answers and logs',
    ]);
  });

  it('has no warnings and no secrets without a file', () => {
    const config = loadConfig(
      { workspace: mkdtempSync(join(tmpdir(), 'deputy-config-secrets-')) },
      { DEPUTY_USER_DIR: '/nonexistent' },
    );
    expect(config.warnings).toEqual([]);
    expect(config.secrets.literals()).toEqual([]);
    expect(config.secrets.variables.size).toBe(0);
  });
});
