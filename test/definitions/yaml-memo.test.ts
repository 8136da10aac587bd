import { describe, expect, it } from 'vitest';
import { readFrontmatterYaml } from '../../src/definitions/read/yaml-memo.js';
import { parseFrontmatterYaml } from '../../src/definitions/read/yaml-read.js';

const TEXT =
  'name: reviewer\ntools: [read, grep]\nmcpServers:\n  - name: local\n    args: [a, b]\n';
const RECOVERED = 'name: helper\ndescription: Use when: the user asks\n';

describe('frontmatter read once per text', () => {
  it('answers what the yaml library reads, for a clean and a recovered text', () => {
    for (const text of [TEXT, RECOVERED, 'name: [unclosed\n']) {
      expect(readFrontmatterYaml(text)).toEqual(parseFrontmatterYaml(text));
      // Asked again (from the memo): the same answer.
      expect(readFrontmatterYaml(text)).toEqual(parseFrontmatterYaml(text));
    }
    expect(readFrontmatterYaml(RECOVERED).diagnostics[0]?.code).toBe('frontmatter.yaml-recovered');
  });

  it('gives each caller its own copy: a change to one answer never reaches the next', () => {
    const first = readFrontmatterYaml(TEXT);
    (first.values!.tools as string[]).push('bash');
    ((first.values!.mcpServers as Array<Record<string, unknown>>)[0]!.args as string[]).length = 0;
    first.values!.name = 'changed';
    first.diagnostics.push({ severity: 'error', path: '', code: 'x', message: 'added' });

    const second = readFrontmatterYaml(TEXT);
    expect(second.values!.tools).toEqual(['read', 'grep']);
    expect(second.values!.name).toBe('reviewer');
    expect((second.values!.mcpServers as Array<Record<string, unknown>>)[0]!.args).toEqual([
      'a',
      'b',
    ]);
    expect(second.diagnostics).toEqual([]);
    // Null-prototype records stay null-prototype (a `__proto__` key is a plain key).
    expect(Object.getPrototypeOf(second.values)).toBeNull();
  });

  it('stays bounded: thousands of distinct texts still read right', () => {
    for (let index = 0; index < 3_000; index++) {
      const text = `name: agent-${index}\ndescription: ${'x'.repeat(2_000)}\n`;
      expect(readFrontmatterYaml(text).values!.name).toBe(`agent-${index}`);
    }
    expect(readFrontmatterYaml(TEXT).values!.name).toBe('reviewer');
  });
});
