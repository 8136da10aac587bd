import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  discoverSkills,
  type SkillDiscoveryConfig,
} from '../../src/capabilities/skill-discovery.js';
import { PROJECT_ROOT } from '../../src/config/load.js';

let root: string;
let config: SkillDiscoveryConfig;
let home: string;

function skill(directory: string, folder: string, frontmatter: string, body = 'Body.\n'): string {
  mkdirSync(join(directory, folder), { recursive: true });
  const location = join(directory, folder, 'SKILL.md');
  writeFileSync(location, `---\n${frontmatter}\n---\n${body}`);
  return location;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deputy-skills-'));
  mkdirSync(join(root, 'ws'));
  mkdirSync(join(root, 'project'));
  home = join(root, 'home');
  config = {
    workspace: join(root, 'ws'),
    projectRoot: join(root, 'project'),
    skills: { pluginDirs: [join(root, 'plugin-a'), 'relative-plugin'] },
  };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('discoverSkills', () => {
  it('finds skills in every layer and the first layer wins for a name', () => {
    const layers = {
      workspace: join(root, 'ws', '.subagents', 'skills'),
      claude: join(root, 'ws', '.claude', 'skills'),
      agents: join(root, 'ws', '.agents', 'skills'),
      system: join(root, 'project', 'skills'),
      user: join(home, '.claude', 'skills'),
      plugin: join(root, 'plugin-a', 'skills'),
      relativePlugin: join(root, 'ws', 'relative-plugin'),
    };
    const winner = skill(layers.workspace, 'dup', 'name: shared\ndescription: from workspace');
    skill(layers.system, 'dup', 'name: Shared\ndescription: from system');
    skill(layers.claude, 'c', 'name: claude-skill\ndescription: c');
    skill(layers.agents, 'a', 'name: agents-skill\ndescription: a');
    const system = skill(layers.system, 's', 'name: system-skill\ndescription: s');
    skill(layers.user, 'u', 'name: user-skill\ndescription: u');
    skill(layers.user, 'u2', 'name: system-skill\ndescription: shadowed by the system layer');
    skill(layers.plugin, 'p', 'name: plugin-skill\ndescription: p');
    skill(layers.relativePlugin, 'r', 'name: relative-skill\ndescription: r');

    const { index, diagnostics } = discoverSkills(config, { homeDir: home });
    expect(index.get('shared')).toEqual({
      name: 'shared',
      description: 'from workspace',
      location: winner,
      layer: 'workspace',
    });
    expect(index.get('system-skill')).toMatchObject({ location: system, layer: 'system' });
    expect(
      Object.fromEntries([...index.values()].map((entry) => [entry.name, entry.layer])),
    ).toEqual({
      shared: 'workspace',
      'claude-skill': 'ecosystem-workspace',
      'agents-skill': 'ecosystem-workspace',
      'system-skill': 'system',
      'user-skill': 'ecosystem-user',
      'plugin-skill': 'plugin',
      'relative-skill': 'plugin',
    });
    expect(diagnostics.map((entry) => entry.code)).toEqual(['skill.shadowed', 'skill.shadowed']);
    expect(diagnostics[0]?.message).toContain('shadowed by');
  });

  it('skips broken skills with a diagnostic and keeps the rest', () => {
    const directory = join(root, 'ws', '.subagents', 'skills');
    skill(directory, 'good', 'name: good\ndescription: fine');
    skill(directory, 'no-description', 'name: nodesc');
    skill(directory, 'bad-name', 'name: "has spaces"\ndescription: x');
    skill(directory, 'bad-yaml', 'name: [unclosed\ndescription: x');
    mkdirSync(join(directory, 'no-frontmatter'));
    writeFileSync(join(directory, 'no-frontmatter', 'SKILL.md'), 'Just text.\n');
    mkdirSync(join(directory, 'not-a-skill'));
    const { index, diagnostics } = discoverSkills(config, { homeDir: home });
    expect([...index.keys()]).toEqual(['good']);
    expect(diagnostics.map((entry) => entry.code)).toEqual(Array(4).fill('skill.invalid'));
    expect(diagnostics.every((entry) => entry.message.includes('skipped'))).toBe(true);
  });

  it("the runtime's own skills folder holds a valid example skill", () => {
    const { index, diagnostics } = discoverSkills(
      { workspace: root, projectRoot: PROJECT_ROOT, skills: { pluginDirs: [] } },
      { homeDir: home },
    );
    expect(diagnostics).toEqual([]);
    expect([...index.values()].some((entry) => entry.layer === 'system')).toBe(true);
  });
});
