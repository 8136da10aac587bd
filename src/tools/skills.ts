import path from 'node:path';
import { splitSkillFile } from '../definitions/skill-file.js';
import { readRegularText } from '../paths/regular-file.js';
import { USE_SKILL_TOOL_SCHEMA } from '../shared/tools/capability-tool-schemas.js';
import type { SkillRef } from '../shared/capability-snapshot.js';
import { ToolError, type ToolImplementation } from './tool.js';

/**
 * `use_skill(name)`: returns the body of a declared skill's SKILL.md, frontmatter
 * stripped. Only the skills the snapshot resolved are reachable; any other name gets a plain
 * "you don't have that" with the list of what the agent does have.
 */
export function createUseSkillTool(skills: SkillRef[]): ToolImplementation {
  const available = (): string => skills.map((skill) => skill.name).join(', ') || 'none';
  return {
    schema: USE_SKILL_TOOL_SCHEMA,
    async run(args) {
      const name = args.name;
      if (typeof name !== 'string' || name.trim() === '') {
        throw new ToolError(`name must be a skill name; available: ${available()}`);
      }
      const skill = skills.find((entry) => entry.name.toLowerCase() === name.trim().toLowerCase());
      if (skill === undefined) {
        throw new ToolError(`you don't have a skill named '${name}'; available: ${available()}`);
      }
      let text: string;
      try {
        text = await readRegularText(skill.location);
      } catch (error) {
        throw new ToolError(
          `skill '${skill.name}' cannot be read from ${skill.location}: ${(error as Error).message}`,
        );
      }
      let body: string;
      try {
        body = splitSkillFile(text).body;
      } catch (error) {
        throw new ToolError(`skill '${skill.name}' is malformed: ${(error as Error).message}`);
      }
      return (
        `Skill '${skill.name}' (files it mentions are relative to ${path.dirname(skill.location)}):\n\n` +
        body
      );
    },
  };
}
