import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../src/models/model-adapter.js';
import type { ModelConfig } from '../../src/models/select-model.js';
import { apiKeyVariable } from '../../src/config/model-keys.js';
import { DEFAULT_CONTEXT_TOKENS } from '../../src/config/schema.js';
import {
  createModelAdapter,
  describeModel,
  resolveModelHandle,
} from '../../src/models/select-model.js';
import { fixture, useLoopbackServer } from './loopback-server.js';

const script = fileURLToPath(new URL('../fixtures/models/scripts/two-turns.yaml', import.meta.url));

let root: string;
let workspace: string;
let projectRoot: string;
let outside: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-select-model-')));
  workspace = join(root, 'workspace');
  projectRoot = join(root, 'project');
  outside = join(root, 'outside');
  for (const directory of [workspace, projectRoot, outside]) {
    mkdirSync(join(directory, 'scripts'), { recursive: true });
  }
  cpSync(script, join(workspace, 'scripts', 'demo.yaml'));
  cpSync(script, join(projectRoot, 'scripts', 'builtin.yaml'));
  cpSync(script, join(outside, 'secret.yaml'));
  symlinkSync(join(outside, 'secret.yaml'), join(workspace, 'scripts', 'link.yaml'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function config(models: Partial<ModelConfig['models']> = {}): ModelConfig {
  return {
    workspace,
    projectRoot,
    models: {
      default: 'scripted:scripts/builtin.yaml',
      catalog: {
        'openai/gpt-4o-mini': {
          provider: 'openai',
          model: 'gpt-4o-mini',
          apiKeyEnv: 'TEST_OPENAI_KEY',
        },
        'anthropic/claude-sonnet-4-5': {
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          apiKeyEnv: 'TEST_ANTHROPIC_KEY',
        },
        'ollama/llama3.1': {
          provider: 'openai',
          model: 'llama3.1',
          baseUrl: 'http://127.0.0.1:11434/v1',
        },
      },
      aliases: { sonnet: 'anthropic/claude-sonnet-4-5' },
      overrides: {},
      ...models,
    },
  };
}

function create(handle: string | undefined, models: Partial<ModelConfig['models']> = {}) {
  return createModelAdapter({
    handle,
    agentName: 'reviewer',
    level: 'project',
    config: config(models),
    baseDirectory: workspace,
    env: {},
  });
}

describe('resolveModelHandle', () => {
  it('lets the operator override win over the definition', () => {
    const resolved = resolveModelHandle(
      'openai/gpt-4o-mini',
      'reviewer',
      config({ overrides: { reviewer: 'sonnet' } }),
    );
    expect(resolved.handle).toBe('anthropic/claude-sonnet-4-5');
    expect(resolved.source).toBe('override');
  });

  it('maps default (and no handle) to models.default', () => {
    expect(resolveModelHandle('default', 'reviewer', config()).handle).toBe(
      'scripted:scripts/builtin.yaml',
    );
    expect(resolveModelHandle(undefined, 'reviewer', config()).source).toBe('default');
  });

  it('follows one alias, also from the default', () => {
    expect(resolveModelHandle('default', 'x', config({ default: 'sonnet' })).trail).toEqual([
      'default',
      'sonnet',
      'anthropic/claude-sonnet-4-5',
    ]);
  });

  it('ignores overrides for other agents and prototype keys', () => {
    const models = config({ overrides: { other: 'sonnet' } });
    expect(resolveModelHandle('openai/gpt-4o-mini', 'reviewer', models).handle).toBe(
      'openai/gpt-4o-mini',
    );
    expect(resolveModelHandle('toString', 'constructor', models).handle).toBe('toString');
  });
});

describe('createModelAdapter', () => {
  it('builds a scripted model relative to the base directory, labelled with the handle path', () => {
    const adapter = create('scripted:scripts/demo.yaml');
    expect(adapter.label).toBe('scripted:scripts/demo.yaml (scripted model)');
  });

  it('resolves the configured default against the workspace, then the project root', () => {
    expect(create('default').label).toBe('scripted:scripts/builtin.yaml (scripted model)');
    expect(create(undefined, { default: 'scripted:scripts/demo.yaml' }).label).toBe(
      'scripted:scripts/demo.yaml (scripted model)',
    );
  });

  it('refuses absolute and escaping scripted paths', () => {
    expect(() => create(`scripted:${join(outside, 'secret.yaml')}`)).toThrow(/must be relative/);
    expect(() => create('scripted:../outside/secret.yaml')).toThrow(/escapes/);
    expect(() => create('scripted:scripts/../../outside/secret.yaml')).toThrow(ModelConfigError);
    expect(() => create('scripted:scripts/link.yaml')).toThrow(/through a symlink/);
    expect(() => create('scripted:')).toThrow(/needs a path/);
  });

  it('does not look in the project root for a definition-level script', () => {
    expect(() => create('scripted:scripts/builtin.yaml')).toThrow(/script not found/);
  });

  it('refuses an unknown handle, naming the agent, the handle and what is configured', () => {
    const attempt = () => create('openai/gpt-5-turbo-ultra');
    expect(attempt).toThrow(ModelConfigError);
    expect(attempt).toThrow(/agent 'reviewer' \(project\): model 'openai\/gpt-5-turbo-ultra'/);
    expect(attempt).toThrow(/Catalog: openai\/gpt-4o-mini, anthropic\/claude-sonnet-4-5, ollama/);
    expect(attempt).toThrow(/Aliases: sonnet/);
  });

  it('names the override trail when an override points nowhere', () => {
    expect(() => create('openai/gpt-4o-mini', { overrides: { reviewer: 'nope/nothing' } })).toThrow(
      /overridden by models\.overrides\.reviewer/,
    );
  });

  it("reports a catalog entry's context window, else the conservative default", () => {
    expect(create('sonnet').contextTokens).toBe(DEFAULT_CONTEXT_TOKENS);
    const catalog = config().models.catalog;
    const wide = { ...catalog['openai/gpt-4o-mini']!, contextTokens: 128_000 };
    expect(
      create('openai/gpt-4o-mini', { catalog: { ...catalog, 'openai/gpt-4o-mini': wide } })
        .contextTokens,
    ).toBe(128_000);
    expect(create('scripted:scripts/demo.yaml').contextTokens).toBeUndefined();
  });

  it('labels catalog adapters with their handle and reads the key only at call time', async () => {
    const adapter = create('sonnet');
    expect(adapter.label).toBe('anthropic/claude-sonnet-4-5');
    const error = await adapter
      .complete({ system: '', transcript: [], tools: [] }, {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as Error).message).toContain('TEST_ANTHROPIC_KEY is not set');
  });

  it('defaults the key variable by provider; none for an entry with a baseUrl', () => {
    expect(apiKeyVariable({ provider: 'openai', model: 'gpt-4o' })).toBe('OPENAI_API_KEY');
    expect(apiKeyVariable({ provider: 'anthropic', model: 'claude' })).toBe('ANTHROPIC_API_KEY');
    expect(
      apiKeyVariable({
        provider: 'openai',
        model: 'llama3.1',
        baseUrl: 'http://localhost:11434/v1',
      }),
    ).toBeUndefined();
    expect(apiKeyVariable({ provider: 'openai', model: 'x', apiKeyEnv: 'MY_KEY' })).toBe('MY_KEY');
    // A base URL is someone else's endpoint (a local server, a proxy): no provider key unasked.
    expect(
      apiKeyVariable({ provider: 'anthropic', model: 'q', baseUrl: 'http://127.0.0.1:8080' }),
    ).toBeUndefined();
  });
});

describe('catalog adapter end to end', () => {
  const server = useLoopbackServer();

  it('sends the key from the configured variable, read at call time', async () => {
    const env: NodeJS.ProcessEnv = {};
    const adapter = createModelAdapter({
      handle: 'local/model',
      agentName: 'reviewer',
      level: 'user',
      baseDirectory: workspace,
      env,
      config: config({
        catalog: {
          'local/model': {
            provider: 'openai',
            model: 'qwen2.5',
            baseUrl: `${server().origin}/v1`,
            apiKeyEnv: 'LOCAL_KEY',
          },
        },
      }),
    });
    env.LOCAL_KEY = 'rotated-key-value-1234';
    server().respond({ status: 200, body: fixture('openai/text.json') });
    const response = await adapter.complete(
      { system: '', transcript: [{ role: 'user', content: 'hi' }], tools: [] },
      {},
    );
    expect(response.modelLabel).toBe('local/model');
    expect(server().requests[0]?.headers.authorization).toBe('Bearer rotated-key-value-1234');
    expect((server().requests[0]?.body as { model: string }).model).toBe('qwen2.5');
  });
});

describe('describeModel', () => {
  it('shows what a handle resolves to without secrets or throwing', () => {
    expect(describeModel('default', config())).toBe(
      'default -> scripted:scripts/builtin.yaml (scripted model)',
    );
    expect(describeModel('sonnet', config())).toBe(
      'sonnet -> anthropic/claude-sonnet-4-5 (anthropic claude-sonnet-4-5)',
    );
    expect(describeModel('ollama/llama3.1', config())).toBe(
      'ollama/llama3.1 (openai llama3.1 at http://127.0.0.1:11434/v1)',
    );
    expect(describeModel('nope/none', config())).toBe('nope/none (not configured)');
    expect(
      describeModel('default', config({ overrides: { reviewer: 'sonnet' } }), 'reviewer'),
    ).toBe(
      'default (overridden by models.overrides.reviewer) -> sonnet -> anthropic/claude-sonnet-4-5 (anthropic claude-sonnet-4-5)',
    );
  });
});
