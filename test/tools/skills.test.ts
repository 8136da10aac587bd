import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillRef } from '../../src/shared/capability-snapshot.js';
import { createUseSkillTool } from '../../src/tools/skills.js';
import type { ToolContext } from '../../src/tools/tool.js';

let root: string;
let declared: SkillRef[];
const context = {} as ToolContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deputy-use-skill-'));
  for (const name of ['alpha', 'beta']) {
    mkdirSync(join(root, name));
    writeFileSync(
      join(root, name, 'SKILL.md'),
      `---\r\nname: ${name}\r\ndescription: ${name} skill\r\n---\r\n# ${name}\r\n\r\nStep one.\r\n`,
    );
  }
  declared = [
    { name: 'alpha', description: 'alpha skill', location: join(root, 'alpha', 'SKILL.md') },
  ];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('use_skill', () => {
  it('returns the body of a declared skill, frontmatter stripped, by case-insensitive name', async () => {
    const result = await createUseSkillTool(declared).run({ name: 'ALPHA' }, context);
    expect(result).toBe(
      `Skill 'alpha' (files it mentions are relative to ${join(root, 'alpha')}):\n\n# alpha\r\n\r\nStep one.\r\n`,
    );
    expect(result).not.toContain('description:');
  });

  it("refuses a skill that exists on disk but was not declared: you don't have it", async () => {
    await expect(createUseSkillTool(declared).run({ name: 'beta' }, context)).rejects.toThrow(
      "you don't have a skill named 'beta'; available: alpha",
    );
    await expect(createUseSkillTool([]).run({ name: 'alpha' }, context)).rejects.toThrow(
      'available: none',
    );
    await expect(createUseSkillTool(declared).run({}, context)).rejects.toThrow(
      'name must be a skill name',
    );
  });

  it('says so when a declared skill disappeared from disk', async () => {
    rmSync(join(root, 'alpha'), { recursive: true });
    await expect(createUseSkillTool(declared).run({ name: 'alpha' }, context)).rejects.toThrow(
      "skill 'alpha' cannot be read",
    );
  });
});
