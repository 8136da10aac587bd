/**
 * `deputy init` as a user runs it in a project of their own (issue 26): the starter files appear,
 * the agent they define resolves cleanly and runs on its script, and a second run (or a project
 * that already has a configuration) overwrites nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDeputy } from './run-deputy.js';

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-init-'));
  writeFileSync(join(dir, 'README.md'), '# mine\n');
  return dir;
}

const env = (dir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  DEPUTY_USER_DIR: join(dir, '.user'),
});

describe('deputy init', () => {
  it('writes a starter agent and configuration that resolve without a problem', async () => {
    const dir = project();
    const init = await runDeputy(['init', '--json'], { cwd: dir, env: env(dir) });
    expect(init.code).toBe(0);
    expect(JSON.parse(init.stdout)).toEqual({
      workspace: dir,
      created: [
        '.subagents/agents/helper.md',
        '.subagents/scripts/helper.yaml',
        '.subagents/config.yaml',
      ],
      kept: [],
    });
    expect(readFileSync(join(dir, '.subagents/config.yaml'), 'utf8')).toContain('#   claude:');
    const shown = await runDeputy(['agents', 'show', 'helper', '--json'], {
      cwd: dir,
      env: env(dir),
    });
    expect(shown.code).toBe(0);
    const shownAgent = JSON.parse(shown.stdout) as {
      level: string;
      diagnostics: unknown[];
      resolution: { tools: string[]; diagnostics: Array<{ severity: string }> };
    };
    expect(shownAgent.level).toBe('project');
    expect(shownAgent.diagnostics).toEqual([]);
    expect([...shownAgent.resolution.tools].sort()).toEqual([
      'edit',
      'glob',
      'grep',
      'read',
      'write',
    ]);
    expect(shownAgent.resolution.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('overwrites nothing: an existing configuration is kept, and a second run keeps all', async () => {
    const dir = project();
    mkdirSync(join(dir, '.subagents'));
    writeFileSync(join(dir, '.subagents/config.yaml'), 'writableRoots: [src]\n');
    const first = await runDeputy(['init'], { cwd: dir, env: env(dir) });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('kept    .subagents/config.yaml (it exists; not overwritten)');
    expect(first.stdout).toContain('created .subagents/agents/helper.md');
    expect(readFileSync(join(dir, '.subagents/config.yaml'), 'utf8')).toBe(
      'writableRoots: [src]\n',
    );
    writeFileSync(join(dir, '.subagents/agents/helper.md'), 'edited by me\n');
    const second = await runDeputy(['init', '--json'], { cwd: dir, env: env(dir) });
    expect(JSON.parse(second.stdout).created).toEqual([]);
    expect(readFileSync(join(dir, '.subagents/agents/helper.md'), 'utf8')).toBe('edited by me\n');
  });
});
