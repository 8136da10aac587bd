import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  assembleSystemPrompt,
  SUBAGENT_FRAMING,
  type PromptParts,
} from '../../src/capabilities/prompt.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/capabilities/${name}`, import.meta.url), 'utf8');

const BODY = '# Role\n\nYou review pull requests.\n\n- Be terse.\n- Cite lines.\n';

const none: PromptParts = {
  framing: SUBAGENT_FRAMING,
  skills: [],
  knowledge: [],
  mcpServers: [],
  memory: null,
  body: BODY,
};

const all: PromptParts = {
  framing: SUBAGENT_FRAMING,
  skills: [
    {
      name: 'release-notes',
      description: 'Write release notes\n from a changelog',
      location: '/ws/.subagents/skills/release-notes/SKILL.md',
    },
  ],
  knowledge: [
    { name: 'manuals', glob: 'docs/manuals/**/*.md' },
    { name: 'policies', glob: 'policies/*.md' },
  ],
  mcpServers: [{ name: 'github', approve: [], toolTimeoutSeconds: 60 }],
  memory: {
    mode: 'private',
    residentFiles: [
      {
        name: 'preferences.md',
        content: '### 2026-11-30T09:00:00.000Z\n\nThe user prefers tables.\n\n',
      },
    ],
    notes: [
      'big.md (5000 bytes) is over the 4 KiB per-file budget and was not loaded; read it with memory_read.',
    ],
  },
  body: BODY,
};

describe('assembleSystemPrompt', () => {
  it('GOLDEN: no dimension declared assembles to exactly framing + body', () => {
    const prompt = assembleSystemPrompt(none);
    expect(prompt).toBe(SUBAGENT_FRAMING + BODY);
    // Byte-for-byte against the committed fixture: provider prompt caches depend on it.
    expect(Buffer.from(prompt)).toEqual(
      readFileSync(
        new URL('../fixtures/capabilities/prompt-no-dimensions.golden.txt', import.meta.url),
      ),
    );
  });

  it('GOLDEN: every dimension, in the fixed order skills -> knowledge -> MCP -> memory', () => {
    const prompt = assembleSystemPrompt(all);
    expect(prompt).toBe(fixture('prompt-all-dimensions.golden.txt'));
    const order = [
      'You are a delegate',
      '# Skills',
      '# Knowledge sources',
      '# MCP servers',
      '# Memory',
      '# Role',
    ];
    const positions = order.map((marker) => prompt.indexOf(marker));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('the framing names no capability', () => {
    expect(SUBAGENT_FRAMING).not.toMatch(/skill|knowledge|kb_search|mcp|memory/i);
    expect(SUBAGENT_FRAMING.endsWith('\n\n')).toBe(true);
  });

  it('each undeclared dimension drops its whole section and nothing else', () => {
    const cases: Array<[keyof PromptParts, PromptParts[keyof PromptParts], RegExp]> = [
      ['skills', [], /skill/i],
      ['knowledge', [], /knowledge|kb_search/i],
      ['mcpServers', [], /mcp/i],
      ['memory', null, /memory/i],
    ];
    for (const [key, empty, trace] of cases) {
      const prompt = assembleSystemPrompt({ ...all, [key]: empty });
      expect(prompt.replace(BODY, '')).not.toMatch(trace);
    }
  });

  it('skill catalog lines carry name, description and location only', () => {
    const prompt = assembleSystemPrompt({ ...none, skills: all.skills });
    expect(prompt).toContain(
      '- release-notes: Write release notes from a changelog (location: /ws/.subagents/skills/release-notes/SKILL.md)\n',
    );
  });

  it('declared memory with no resident file still says how to use it', () => {
    const prompt = assembleSystemPrompt({
      ...none,
      memory: { mode: 'shared', residentFiles: [], notes: [] },
    });
    expect(prompt).toContain('shared with the main agent');
    expect(prompt).toContain('Your resident memory is empty.');
  });

  it('no tool patterns and no plan/dontAsk flag add no byte (empty records included)', () => {
    for (const extra of [
      { toolPatterns: {} },
      { policyFlags: {} },
      { policyFlags: { protectInFullAccess: true } },
      { toolPatterns: {}, policyFlags: { readOnly: false, noHuman: false } },
    ]) {
      expect(assembleSystemPrompt({ ...none, ...extra })).toBe(SUBAGENT_FRAMING + BODY);
    }
  });

  it('tool patterns: a section right after the framing lists each restricted tool', () => {
    const prompt = assembleSystemPrompt({
      ...all,
      toolPatterns: { read: ['docs/**', 'src/*.ts'], bash: ['git status', 'npm run test:*'] },
    });
    expect(prompt.startsWith(SUBAGENT_FRAMING + '# Restricted tools\n\n')).toBe(true);
    expect(prompt).toContain(
      '- bash: only `git status` exactly, `npm run test` with any arguments. Every command of a ' +
        'call must match one; anything else is refused, including chaining (;, &&, ||, |), ' +
        'command or process substitution, variables, redirection to or from files, subshells ' +
        'and control structures\n',
    );
    expect(prompt).toContain(
      '- read: only paths matching `docs/**`, `src/*.ts` (relative to the workspace); a call ' +
        'that names another path, or none, is refused\n',
    );
    // bash first, then the file tools by name; the catalog follows unchanged.
    expect(prompt.indexOf('- bash:')).toBeLessThan(prompt.indexOf('- read:'));
    expect(prompt.indexOf('- read:')).toBeLessThan(prompt.indexOf('# Skills'));
    expect(prompt.endsWith(assembleSystemPrompt(all).slice(SUBAGENT_FRAMING.length))).toBe(true);
  });

  it('a restricted tool whose patterns were all unusable is listed as allowing nothing', () => {
    const prompt = assembleSystemPrompt({ ...none, toolPatterns: { bash: [] } });
    expect(prompt).toContain('- bash: nothing (none of its patterns could be used)\n');
  });

  it('plan mode and dontAsk each add one sentence under # Permissions', () => {
    const plan = assembleSystemPrompt({ ...none, policyFlags: { readOnly: true } });
    expect(plan).toBe(
      SUBAGENT_FRAMING +
        '# Permissions\n\nYou are in plan mode: you are read-only, so every call that would ' +
        'change files or run commands is denied; read what you need and ' +
        'present the plan in your answer.\n\n' +
        BODY,
    );
    const dontAsk = assembleSystemPrompt({ ...none, policyFlags: { noHuman: true } });
    expect(dontAsk).toBe(
      SUBAGENT_FRAMING +
        '# Permissions\n\nNo one answers approval requests for you: a call that would need ' +
        'approval is denied at once instead of waiting, so work with the calls that are ' +
        'allowed without one.\n\n' +
        BODY,
    );
    const both = assembleSystemPrompt({
      ...none,
      policyFlags: { readOnly: true, noHuman: true },
      toolPatterns: { bash: ['git:*'] },
    });
    expect(both.indexOf('plan mode')).toBeLessThan(both.indexOf('No one answers'));
    expect(both.indexOf('No one answers')).toBeLessThan(both.indexOf('# Restricted tools'));
  });
});
