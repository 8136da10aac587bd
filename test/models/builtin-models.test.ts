/**
 * Claude Code's model names without configuration: the file reader, the save/load check and the
 * runtime adapter agree on what `sonnet`, `opus`, `haiku` and `claude-*` ids run on.
 */
import { describe, expect, it } from 'vitest';
import type { DeputyConfig } from '../../src/config/schema.js';
import { modelProblem } from '../../src/definitions/model-check.js';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import {
  BUILTIN_ANTHROPIC_MODELS,
  builtinCatalogEntry,
  builtinModelAliases,
  builtinModelHandle,
} from '../../src/models/builtin-models.js';
import {
  createModelAdapter,
  describeModel,
  resolveModelHandle,
} from '../../src/models/select-model.js';

type Models = DeputyConfig['models'];
const KEY = { ANTHROPIC_API_KEY: 'sk-test' };

function models(overrides: Partial<Models> = {}): Models {
  return {
    default: 'scripted:agents/scripts/echo.yaml',
    catalog: { 'openai/gpt-4o-mini': { provider: 'openai', model: 'gpt-4o-mini' } },
    aliases: {},
    overrides: {},
    ...overrides,
  };
}

function read(model: string, settings: Models, env: NodeJS.ProcessEnv) {
  const { definition, diagnostics } = parseDefinition(`---\nmodel: ${model}\n---\n`, {
    fileName: 'a.md',
    level: 'ecosystem',
    aliases: settings.aliases,
    builtinModel: (name) => builtinModelHandle(name, settings.catalog, env),
  });
  const found = diagnostics.find((d) => d.path === 'model');
  return { model: definition.model, code: found?.code, severity: found?.severity, found };
}

describe('built-in Anthropic models', () => {
  it('resolve sonnet, opus and haiku to Anthropic handles when ANTHROPIC_API_KEY is set', () => {
    for (const [alias, id] of Object.entries(BUILTIN_ANTHROPIC_MODELS)) {
      const result = read(alias, models(), KEY);
      expect(result.model).toBe(`anthropic/${id}`);
      expect(result.code).toBe('model.alias-builtin');
      expect(result.severity).toBe('info');
      expect(result.found?.message).toContain(`anthropic/${id}`);
      expect(result.found?.message).toContain('models.aliases');
      expect(modelProblem(result.model, models(), KEY)).toBeNull();
      expect(modelProblem(alias, models(), KEY)).toBeNull();
    }
  });

  it('read a full claude-* id as that Anthropic model', () => {
    expect(read('claude-opus-4-6', models(), KEY)).toMatchObject({
      model: 'anthropic/claude-opus-4-6',
      code: 'model.alias-builtin',
    });
  });

  it('count an anthropic catalog entry as a configured key, and use its handle and key variable', () => {
    const catalog: Models['catalog'] = {
      'work/sonnet': { provider: 'anthropic', model: 'claude-sonnet-4-6', apiKeyEnv: 'WORK_KEY' },
    };
    expect(builtinModelHandle('sonnet', catalog, {})).toBe('work/sonnet');
    expect(builtinModelHandle('haiku', catalog, {})).toBe('anthropic/claude-haiku-4-5');
    expect(builtinCatalogEntry('anthropic/claude-haiku-4-5', catalog, {})).toEqual({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      apiKeyEnv: 'WORK_KEY',
      contextTokens: 200_000,
    });
    expect(read('haiku', models({ catalog }), {}).code).toBe('model.alias-builtin');
  });

  it("let the operator's alias win, with model.alias", () => {
    const settings = models({ aliases: { sonnet: 'openai/gpt-4o-mini' } });
    expect(read('sonnet', settings, KEY)).toMatchObject({
      model: 'openai/gpt-4o-mini',
      code: 'model.alias',
    });
    expect(resolveModelHandle('sonnet', 'a', { models: settings }, KEY).handle).toBe(
      'openai/gpt-4o-mini',
    );
  });

  it('without any Anthropic key keep the warning and the default model, saying how to map it', () => {
    const result = read('opus', models(), {});
    expect(result).toMatchObject({ model: 'default', code: 'model.alias-unmapped' });
    expect(result.severity).toBe('warning');
    expect(result.found?.message).toMatch(/ANTHROPIC_API_KEY/);
    expect(result.found?.message).toMatch(/models\.aliases: \{opus: /);
    expect(builtinModelAliases(models().catalog, {})).toEqual({});
    expect(modelProblem('opus', models(), {})).toMatch(/not in the model catalog/);
    expect(modelProblem('anthropic/claude-opus-4-7', models(), {})).toMatch(
      /not in the model catalog/,
    );
    expect(builtinCatalogEntry('anthropic/claude-opus-4-7', {}, {})).toBeUndefined();
  });

  it('never makes a non-Anthropic or malformed name runnable', () => {
    expect(builtinModelHandle('gpt-4o', {}, KEY)).toBeUndefined();
    expect(builtinModelHandle('__proto__', {}, KEY)).toBeUndefined();
    expect(builtinCatalogEntry('anthropic/gpt-4o', {}, KEY)).toBeUndefined();
    expect(builtinCatalogEntry('openai/claude-x', {}, KEY)).toBeUndefined();
  });

  it('run at call time on the built-in entry, reading ANTHROPIC_API_KEY', () => {
    const config = { models: models(), workspace: '/ws', projectRoot: '/p' };
    const adapter = createModelAdapter({
      handle: 'sonnet',
      agentName: 'a',
      level: 'ecosystem',
      config,
      baseDirectory: '/ws',
      env: KEY,
    });
    expect(adapter.label).toBe('anthropic/claude-sonnet-4-6');
    expect(describeModel('haiku', config, 'a', KEY)).toBe(
      'haiku -> anthropic/claude-haiku-4-5 (anthropic claude-haiku-4-5)',
    );
    expect(() =>
      createModelAdapter({
        handle: 'sonnet',
        agentName: 'a',
        level: 'ecosystem',
        config,
        baseDirectory: '/ws',
        env: {},
      }),
    ).toThrow(/model 'sonnet' is not configured/);
  });
});
