/** DEPUTY_SMOKE_MODEL's format, and the smoke table (unit: no model, no Temporal). */
import { describe, expect, it } from 'vitest';
import { parseSmokeEndpoint } from './support/smoke-endpoint.js';
import { formatTable, type SmokeRow } from './support/smoke-report.js';

describe('DEPUTY_SMOKE_MODEL', () => {
  it.each([
    [
      'openai:http://127.0.0.1:11434/v1:qwen2.5:7b',
      { provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' },
    ],
    [
      'openai:https://api.openai.com/v1:gpt-4o-mini',
      { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
    ],
    [
      'anthropic:https://api.anthropic.com:claude-haiku-4-5',
      { provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-haiku-4-5' },
    ],
    [
      'openai:http://[::1]:8000/v1/:Qwen/Qwen2.5-7B-Instruct',
      { provider: 'openai', baseUrl: 'http://[::1]:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct' },
    ],
  ])('%s', (text, expected) => {
    expect(parseSmokeEndpoint(text, 'DEPUTY_SMOKE_MODEL')).toEqual({
      ...expected,
      source: 'DEPUTY_SMOKE_MODEL',
    });
  });

  it.each([
    'http://127.0.0.1:8080/v1:local',
    'ollama:http://127.0.0.1:11434/v1:qwen2.5',
    'openai:http://127.0.0.1:11434/v1',
    'openai:127.0.0.1:8080:local',
  ])('refuses %s, saying what the format is', (text) => {
    expect(() => parseSmokeEndpoint(text, 'DEPUTY_SMOKE_MODEL')).toThrow(
      `DEPUTY_SMOKE_MODEL='${text}' is not <provider>:<baseUrl>:<model>`,
    );
  });
});

describe('the smoke table', () => {
  it('has a row per check with its rounds, tokens, wall time and endpoint', () => {
    const row = (check: string, outcome: SmokeRow['outcome'], wallMs: number): SmokeRow => ({
      check,
      endpoint: 'openai local @ http://127.0.0.1:1/v1 (local llama.cpp)',
      outcome,
      rounds: outcome === 'passed' ? 2 : null,
      usage:
        outcome === 'passed'
          ? {
              inputTokens: 900,
              outputTokens: 40,
              cachedInputTokens: 0,
              modelCalls: 2,
              modelCallsWithoutUsage: 0,
            }
          : null,
      wallMs,
      startedAt: 0,
    });
    const lines = formatTable([row('read', 'passed', 9_400), row('write', 'failed', 1_000)]).split(
      '\n',
    );
    expect(lines[0]).toMatch(
      /^\| check +\| outcome \| rounds \| tokens \(in\/out\) \| wall +\| model @ endpoint/,
    );
    expect(lines[2]).toMatch(
      /^\| read +\| passed +\| 2 +\| 940 \(900\/40\) +\| 9\.4 s \| openai local @/,
    );
    expect(lines[3]).toMatch(/^\| write +\| failed +\| - +\| - +\| 1\.0 s \|/);
    expect(lines[4]).toBe('2 check(s), 1 passed, 10.4 s in checks');
  });
});
