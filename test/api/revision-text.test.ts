/** A revision's text for the console's diff (src/api/agents/revision-text.ts): secrets out, bytes kept. */
import { describe, expect, it } from 'vitest';
import { redactFile } from '../../src/api/agents/revision-text.js';

describe('redactFile', () => {
  it("replaces an inline server's env values, headers and OAuth secret, and nothing else", () => {
    const file = [
      '---',
      'name: keeper   # the vault keeper',
      'mcpServers:',
      '  - everything',
      '  - name: vault',
      '    command: node',
      '    env:',
      '      VAULT_TOKEN: "tok-123456789"',
      '      DEBUG: 1',
      '    headers: { Authorization: Bearer abcdefgh12345 }',
      '    oauth:',
      '      clientId: keeper-app',
      '      clientSecret: shh-42-secret',
      '---',
      'Body mentions tok-123456789 only by accident.',
      '',
    ].join('\r\n');
    expect(redactFile(file)).toBe(
      file
        .replace('"tok-123456789"', '__redacted__')
        .replace('DEBUG: 1', 'DEBUG: __redacted__')
        .replace('Bearer abcdefgh12345', '__redacted__')
        .replace('shh-42-secret', '__redacted__'),
    );
  });

  it("handles Claude Code's record of servers", () => {
    const file = '---\nmcpServers:\n  vault:\n    env:\n      KEY: value-1\n---\nx\n';
    expect(redactFile(file)).toBe(
      '---\nmcpServers:\n  vault:\n    env:\n      KEY: __redacted__\n---\nx\n',
    );
  });

  it('leaves a file without servers, or without frontmatter, byte for byte', () => {
    for (const file of [
      '---\nname: a\n---\nbody\n',
      'just a body\n',
      '---\nmcpServers: [a, b]\n---\n',
    ]) {
      expect(redactFile(file)).toBe(file);
    }
  });
});
