import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import { AgentFrontmatterSchema } from '../../src/definitions/schema.js';
import { ConfigFileSchema } from '../../src/config/schema.js';

function read(sandbox: string) {
  const text = `---\nname: boxed\ndescription: d\nsandbox: ${sandbox}\n---\nbody\n`;
  return parseDefinition(text, { fileName: 'boxed.md', level: 'project' });
}

describe('the sandbox field', () => {
  it('reads off, on and a declaration of paths, variables and ceilings', () => {
    expect(read('off').definition.sandbox).toBe('off');
    expect(read('on').definition.sandbox).toBe('on');
    const full = read(
      '\n  read: [docs, /srv/data]\n  write: [out]\n  env: [GITHUB_TOKEN]\n  limits: { cpuSeconds: 30, memoryMiB: 512, processes: 64 }',
    );
    expect(full.diagnostics).toEqual([]);
    expect(full.definition.sandbox).toEqual({
      read: ['docs', '/srv/data'],
      write: ['out'],
      env: ['GITHUB_TOKEN'],
      limits: { cpuSeconds: 30, memoryMiB: 512, processes: 64 },
    });
  });

  it('is absent when the file does not declare it (the workspace default applies)', () => {
    const text = '---\nname: plain\ndescription: d\n---\nbody\n';
    expect(
      parseDefinition(text, { fileName: 'plain.md', level: 'project' }).definition.sandbox,
    ).toBeUndefined();
  });

  it('diagnoses unknown keys, in the declaration and in its limits', () => {
    const { definition, diagnostics } = read(
      '\n  write: [out]\n  network: [example.com]\n  limits: { wallSeconds: 5 }',
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: 'sandbox.network',
        code: 'field.unknown',
        message: "unknown key 'network' of sandbox is ignored; it takes read, write, env, limits",
      }),
      expect.objectContaining({
        severity: 'warning',
        path: 'sandbox.limits.wallSeconds',
        code: 'field.unknown',
      }),
    ]);
    expect(definition.sandbox).toEqual({ write: ['out'], limits: {} });
  });

  it('refuses ~ (never expanded), bad variable names and bad ceilings, keeping the rest', () => {
    const { definition, diagnostics } = read(
      "\n  read: ['~/.ssh', docs]\n  env: [GOOD, 'BAD-NAME']\n  limits: { processes: -1 }",
    );
    expect(diagnostics.map((d) => [d.severity, d.path, d.message])).toEqual([
      [
        'error',
        'sandbox.read[0]',
        "sandbox.read[0] '~/.ssh': '~' is not expanded: write the path relative to the workspace or absolute; ignored",
      ],
      [
        'error',
        'sandbox.env[1]',
        'sandbox.env[1] must be an environment variable name (letters, digits, _), got "BAD-NAME"; ignored',
      ],
      [
        'error',
        'sandbox.limits.processes',
        'sandbox.limits.processes must be a positive integer, got number -1; the default applies',
      ],
    ]);
    expect(definition.sandbox).toEqual({ read: ['docs'], env: ['GOOD'], limits: {} });
  });

  it('fails closed: a value it cannot read leaves the sandbox on', () => {
    const { definition, diagnostics } = read('yes please');
    expect(definition.sandbox).toBe('on');
    expect(diagnostics[0]?.message).toBe(
      'sandbox must be off, on or a mapping {read, write, env, limits}, got string "yes please"; the sandbox is on with the workspace only until this is fixed',
    );
  });

  it('is checked strictly on save and in the workspace configuration', () => {
    const save = (sandbox: unknown) =>
      AgentFrontmatterSchema.safeParse({ name: 'a', description: 'd', sandbox }).success;
    expect(save('on')).toBe(true);
    expect(save({ write: ['out'], limits: { cpuSeconds: 10 } })).toBe(true);
    expect(save({ network: ['x'] })).toBe(false);
    expect(save({ read: ['~/x'] })).toBe(false);
    expect(ConfigFileSchema.safeParse({ sandbox: { env: ['HOME_DIR'] } }).success).toBe(true);
    expect(ConfigFileSchema.safeParse({ sandbox: 'sometimes' }).success).toBe(false);
  });
});
