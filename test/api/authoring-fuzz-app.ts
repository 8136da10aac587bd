/**
 * The world the authoring fuzz runs in: the real app over a real registry on temp dirs, seeded
 * with agents at every level (project, user, a shadowed name at both, an ecosystem file, the
 * built-ins), inline MCP servers holding planted secrets, workspace MCP servers whose secrets come
 * from `${VAR}` references, a revision to restore, and a scripted default model so generation
 * runs. `reset()` puts every tree back byte for byte (revision ids included), so a long fuzz run
 * does not pile up files.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { Logger } from '../../src/api/http/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { type DeputyConfig } from '../../src/config/schema.js';
import {
  createRegistry,
  type DefinitionRegistry,
} from '../../src/definitions/registry/registry.js';
import { fixedConfig } from '../../src/config/live-config.js';
import { captureTrees, restoreTrees } from '../support/disk-snapshot.js';
import { AUTH_CONFIG, TOKEN_ENV } from './make-app.js';
import { stubDelegations } from './stub-delegations.js';

/** Random and shaped like no known token format: only structure or the configured masker hides them. */
const planted = (label: string): string => `${label}-${randomBytes(9).toString('hex')}`;

/** Secrets in the agent files (inline servers) and behind the configuration's references. */
export const FUZZ_SECRETS = {
  inlineEnv: planted('fz-inline-env'),
  inlineHeader: planted('fz-inline-header'),
  inlineOauth: planted('fz-inline-oauth'),
  userEnv: planted('fz-user-env'),
  configEnv: planted('fz-config-env'),
  configHeader: planted('fz-config-header'),
} as const;
export const ALL_FUZZ_SECRETS: readonly string[] = Object.values(FUZZ_SECRETS);

/** Secrets written in agent files: they must stay there through any accepted round trip. */
export const FILE_SECRETS: readonly string[] = [
  FUZZ_SECRETS.inlineEnv,
  FUZZ_SECRETS.inlineHeader,
  FUZZ_SECRETS.inlineOauth,
];

const CONFIG_YAML = `models:
  default: scripted:scripts/gen.yaml
mcpServers:
  vault:
    transport: stdio
    command: vault-mcp
    env:
      VAULT_TOKEN: \${FUZZ_CONFIG_ENV}
  remote:
    transport: http
    endpoint: http://127.0.0.1:9/mcp
    headers:
      Authorization: Bearer \${FUZZ_CONFIG_HEADER}
`;

const ALPHA = `---
name: alpha
description: Project agent with inline MCP servers
tools: [read, grep]
approvalMode: confirm
maxTurns: 8
mcpServers:
  - vault
  - name: tracker
    transport: http
    endpoint: https://tracker.example/mcp
    headers:
      Authorization: Bearer ${FUZZ_SECRETS.inlineHeader}
    oauth:
      clientId: deputy
      clientSecret: ${FUZZ_SECRETS.inlineOauth}
  - name: local
    transport: stdio
    command: npx
    args: [srv]
    env:
      TOKEN: ${FUZZ_SECRETS.inlineEnv}
      MODE: fast
hooks:
  Stop:
    - command: "true"
---
You are alpha.
`;

/** Seed files, by tree: `w` the workspace, `u` the user dir, relative paths. */
function seedFiles(): Array<['w' | 'u', string, string]> {
  return [
    ['w', '.subagents/config.yaml', CONFIG_YAML],
    ['w', 'scripts/gen.yaml', 'turns:\n  - text: "Reviews ${task} one file at a time."\n'],
    ['w', '.subagents/agents/alpha.md', ALPHA],
    [
      'w',
      '.subagents/agents/beta.md',
      '---\nname: beta\ndescription: Plain project agent\ntools: [read]\n# a comment write-back keeps\nvendorKey: 1\n---\nYou are beta.\n',
    ],
    [
      'u',
      'agents/alpha.md',
      '---\nname: alpha\ndescription: User-level alpha, shadowed by the project one\n---\nShadowed.\n',
    ],
    [
      'u',
      'agents/gamma.md',
      `---\nname: gamma\ndescription: User agent\nmcpServers:\n  - name: box\n    transport: stdio\n    command: box\n    env: { KEY: ${FUZZ_SECRETS.userEnv} }\n---\nYou are gamma.\n`,
    ],
    [
      'w',
      '.claude/agents/eco.md',
      '---\nname: eco\ndescription: A Claude Code agent, read-only through deputy\ntools: Read, Grep\n---\nYou are eco.\n',
    ],
  ];
}

export interface FuzzWorld {
  app: ReturnType<typeof createApp>;
  registry: DefinitionRegistry;
  config: DeputyConfig;
  workspace: string;
  userDir: string;
  dataDir: string;
  /** What a refused request must leave byte-identical. */
  trees: string[];
  /** `logger.error` calls: every one is a bug (an unexpected exception or a failed generation). */
  errors: unknown[];
  /** Every line logged, any level, to scan for secrets. */
  lines: string[];
  /** Puts every tree back exactly as seeded (revision ids included) and reloads the registry. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function createFuzzWorld(options: { auth: boolean }): Promise<FuzzWorld> {
  const root = mkdtempSync(join(tmpdir(), 'deputy-authoring-fuzz-'));
  const workspace = join(root, 'workspace');
  const userDir = join(root, 'user');
  const dataDir = join(root, 'data');
  const place = (tree: 'w' | 'u', path: string, content: string | Buffer) => {
    const full = join(tree === 'w' ? workspace : userDir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  };
  for (const [tree, path, content] of seedFiles()) place(tree, path, content);
  const env = {
    ...TOKEN_ENV,
    FUZZ_CONFIG_ENV: FUZZ_SECRETS.configEnv,
    FUZZ_CONFIG_HEADER: FUZZ_SECRETS.configHeader,
    DEPUTY_USER_DIR: userDir,
    DEPUTY_DATA_DIR: dataDir,
  };
  const loaded = loadConfig({ workspace, dataDir }, env);
  const config: DeputyConfig = options.auth ? { ...loaded, auth: AUTH_CONFIG } : loaded;
  const registry = createRegistry({ config });
  await registry.load();
  // Revisions to restore, made the way the API makes them: one of beta, which exists, and one
  // of ghost, which was deleted (a deleted agent keeps its revisions).
  await registry.update('beta', { description: 'Plain project agent, edited once' });
  await registry.create('project', { name: 'ghost', description: 'Deleted, restorable' }, 'Boo.\n');
  await registry.delete('ghost');

  const trees = [
    join(workspace, '.subagents'),
    join(workspace, '.claude'),
    join(userDir, 'agents'),
    join(dataDir, 'revisions'),
  ];
  const seeded = captureTrees(trees);
  const errors: unknown[] = [];
  const lines: string[] = [];
  const logger: Logger = {
    error: (message, error) => {
      errors.push([message, error]);
      lines.push(`${message} ${error instanceof Error ? error.stack : String(error)}`);
    },
    warn: (message) => lines.push(message),
    info: (message) => lines.push(message),
  };
  const app = createApp({
    delegations: stubDelegations().delegations,
    config,
    settings: fixedConfig(config),
    auth: createAuth(config, env),
    definitions: registry,
    logger,
  });
  return {
    app,
    registry,
    config,
    workspace,
    userDir,
    dataDir,
    trees,
    errors,
    lines,
    async reset() {
      restoreTrees(seeded);
      await registry.reload();
    },
    async close() {
      await registry.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
