/**
 * `deputy init` as a user runs it in a project of their own: the starter files appear,
 * the agent they define resolves cleanly and runs on its script, and a second run (or a project
 * that already has a configuration) overwrites nothing, and nothing is written through a link
 * that leads out of the workspace.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

  it('writes nothing through a link that leads out of the workspace; a link inside it is fine', async () => {
    const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-init-elsewhere-')));
    const refused = async (dir: string, link: string, target: string) => {
      const init = await runDeputy(['init'], { cwd: dir, env: env(dir) });
      expect(init.code, init.stderr).toBe(2);
      expect(init.stderr).toContain(
        `deputy: ${link} in ${dir} is a symbolic link to ${target}, outside the workspace: deputy init writes nothing through it (nothing was written;`,
      );
      expect(init.stdout).toBe('');
    };

    // .subagents itself a link to another folder.
    const linked = project();
    symlinkSync(elsewhere, join(linked, '.subagents'));
    await refused(linked, '.subagents', elsewhere);
    expect(readdirSync(elsewhere)).toEqual([]);

    // A deeper component: .subagents is a folder, its agents/ a link out. Nothing is written,
    // not even the files that would not pass through the link.
    const deeper = project();
    mkdirSync(join(deeper, '.subagents'));
    symlinkSync(elsewhere, join(deeper, '.subagents', 'agents'));
    await refused(deeper, '.subagents/agents', elsewhere);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(join(deeper, '.subagents'))).toEqual(['agents']);

    // A dangling link out: writing through it would create its target.
    const dangling = project();
    const missing = join(elsewhere, 'not-yet');
    symlinkSync(missing, join(dangling, '.subagents'));
    await refused(dangling, '.subagents', missing);
    expect(existsSync(missing)).toBe(false);

    // A link that stays in the workspace is where the person keeps it: written through.
    const inside = project();
    mkdirSync(join(inside, 'config'));
    symlinkSync('config', join(inside, '.subagents'));
    const init = await runDeputy(['init', '--json'], { cwd: inside, env: env(inside) });
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout).created).toHaveLength(3);
    expect(readFileSync(join(inside, 'config', 'agents', 'helper.md'), 'utf8')).toContain(
      'name: helper',
    );
  });
});
