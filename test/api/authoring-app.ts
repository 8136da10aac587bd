/**
 * The real app over a real definition registry in a fresh temp workspace (real files: built-ins
 * from this repository's agents/, user and project levels and revisions under the temp dir), for
 * the authoring routes' in-process tests. The delegation facade is the recording stub: these
 * tests never start a delegation.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
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
import { AUTH_CONFIG, TOKEN_ENV } from './make-app.js';
import { stubDelegations } from './stub-delegations.js';

export interface AuthoringApp {
  app: ReturnType<typeof createApp>;
  config: DeputyConfig;
  registry: DefinitionRegistry;
  workspace: string;
  userDir: string;
  dataDir: string;
  /** Everything the app logged, to scan for secrets. */
  logs: string[];
}

export interface AuthoringAppOptions {
  /** `.subagents/config.yaml` of the workspace, written before the configuration is loaded. */
  configYaml?: string;
  auth?: boolean;
  /** Environment the configuration and the tokens are read from. */
  env?: NodeJS.ProcessEnv;
}

export interface AuthoringLayout {
  root: string;
  workspace: string;
  userDir: string;
  dataDir: string;
  /** The tokens (TOKEN_ENV) and `options.env`. */
  env: NodeJS.ProcessEnv;
  config: DeputyConfig;
}

/**
 * A workspace (with `configYaml` as `.subagents/config.yaml`), a user level and a data directory
 * under a fresh temp dir, and the configuration loaded over them (with AUTH_CONFIG for `auth`).
 * The caller removes `root`.
 */
export function authoringLayout(
  prefix: string,
  options: AuthoringAppOptions = {},
): AuthoringLayout {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const workspace = join(root, 'workspace');
  const userDir = join(root, 'user');
  const dataDir = join(root, 'data');
  mkdirSync(join(workspace, '.subagents'), { recursive: true });
  if (options.configYaml !== undefined) {
    writeFileSync(join(workspace, '.subagents', 'config.yaml'), options.configYaml);
  }
  const env = { ...TOKEN_ENV, ...options.env };
  const loaded = loadConfig(
    { workspace, dataDir },
    { DEPUTY_USER_DIR: userDir, DEPUTY_DATA_DIR: dataDir, ...env },
  );
  const config: DeputyConfig = options.auth === true ? { ...loaded, auth: AUTH_CONFIG } : loaded;
  return { root, workspace: config.workspace, userDir, dataDir, env, config };
}

/** A fresh app per call; everything it made is removed after the test. */
export function useAuthoringApps(): (options?: AuthoringAppOptions) => Promise<AuthoringApp> {
  const made: Array<{ root: string; registry: DefinitionRegistry }> = [];
  afterEach(async () => {
    for (const { root, registry } of made.splice(0)) {
      await registry.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
  return async (options = {}) => {
    const { root, userDir, dataDir, env, config } = authoringLayout('deputy-authoring-', options);
    const registry = createRegistry({ config });
    await registry.load();
    made.push({ root, registry });
    const logs: string[] = [];
    const logger: Logger = {
      error: (message, error) => logs.push(`${message} ${String(error)}`),
      warn: (message) => logs.push(message),
      info: (message) => logs.push(message),
    };
    const app = createApp({
      delegations: stubDelegations().delegations,
      config,
      settings: fixedConfig(config),
      auth: createAuth(config, env),
      definitions: registry,
      logger,
    });
    return { app, config, registry, workspace: config.workspace, userDir, dataDir, logs };
  };
}

export function send(method: string, body?: unknown, headers: Record<string, string> = {}) {
  return {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  };
}
