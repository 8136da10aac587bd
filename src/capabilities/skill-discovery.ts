import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { DeputyConfig } from '../config/schema.js';
import type { SkillRef } from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { splitSkillFile } from '../definitions/skill-file.js';
import { readRegularTextSync } from '../paths/regular-file.js';

/** Skill discovery layers, highest priority first; the first hit wins a name. */
export type SkillLayer =
  'workspace' | 'ecosystem-workspace' | 'system' | 'ecosystem-user' | 'plugin';

export interface IndexedSkill extends SkillRef {
  layer: SkillLayer;
}

/** Skill name -> the skill that won discovery (first layer hit). Names are as written in SKILL.md. */
export type SkillIndex = ReadonlyMap<string, IndexedSkill>;

export interface SkillDiscovery {
  index: SkillIndex;
  /** Skills skipped (unreadable, bad frontmatter) or shadowed by a higher layer. */
  diagnostics: Diagnostic[];
}

export interface SkillDiscoveryOptions {
  /** Home directory for the ecosystem user layer (`<home>/.claude/skills`). Default: `os.homedir()`. */
  homeDir?: string;
}

export type SkillDiscoveryConfig = Pick<DeputyConfig, 'workspace' | 'projectRoot' | 'skills'>;

const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The directories searched, in priority order. */
export function skillLayerDirectories(
  config: SkillDiscoveryConfig,
  options: SkillDiscoveryOptions = {},
): Array<{ layer: SkillLayer; directory: string }> {
  const home = options.homeDir ?? homedir();
  const layers: Array<{ layer: SkillLayer; directory: string }> = [
    { layer: 'workspace', directory: join(config.workspace, '.subagents', 'skills') },
    { layer: 'ecosystem-workspace', directory: join(config.workspace, '.claude', 'skills') },
    { layer: 'ecosystem-workspace', directory: join(config.workspace, '.agents', 'skills') },
    { layer: 'system', directory: join(config.projectRoot, 'skills') },
    { layer: 'ecosystem-user', directory: join(home, '.claude', 'skills') },
  ];
  for (const pluginDir of config.skills.pluginDirs) {
    const root = isAbsolute(pluginDir) ? pluginDir : resolve(config.workspace, pluginDir);
    // A plugin folder either holds skills directly or, like Claude Code plugins, in `skills/`.
    const nested = join(root, 'skills');
    layers.push({ layer: 'plugin', directory: isDirectory(nested) ? nested : root });
  }
  return layers;
}

/**
 * Scans the skill layers (file system I/O; resolution itself stays pure and takes the result).
 * A skill is a folder holding a `SKILL.md` whose frontmatter has `name` and `description`.
 * The first layer that has a name wins; broken skills are skipped with a diagnostic.
 */
export function discoverSkills(
  config: SkillDiscoveryConfig,
  options: SkillDiscoveryOptions = {},
): SkillDiscovery {
  const index = new Map<string, IndexedSkill>();
  const byLowerName = new Map<string, IndexedSkill>();
  const diagnostics: Diagnostic[] = [];
  for (const { layer, directory } of skillLayerDirectories(config, options)) {
    for (const folder of listFolders(directory)) {
      const location = join(directory, folder, 'SKILL.md');
      if (!existsSync(location)) continue;
      const parsed = readSkill(location);
      if (typeof parsed === 'string') {
        diagnostics.push({
          severity: 'warning',
          path: location,
          code: 'skill.invalid',
          message: `skill at ${location} skipped: ${parsed}`,
        });
        continue;
      }
      const winner = byLowerName.get(parsed.name.toLowerCase());
      if (winner !== undefined) {
        diagnostics.push({
          severity: 'info',
          path: location,
          code: 'skill.shadowed',
          message: `skill '${parsed.name}' at ${location} (${layer}) is shadowed by ${winner.location} (${winner.layer})`,
        });
        continue;
      }
      const skill: IndexedSkill = { ...parsed, location, layer };
      index.set(parsed.name, skill);
      byLowerName.set(parsed.name.toLowerCase(), skill);
    }
  }
  return { index, diagnostics };
}

function readSkill(location: string): { name: string; description: string } | string {
  let text: string;
  try {
    text = readRegularTextSync(location);
  } catch (error) {
    return `cannot be read: ${(error as Error).message}`;
  }
  let frontmatter: unknown;
  try {
    frontmatter = splitSkillFile(text).frontmatter;
  } catch (error) {
    return (error as Error).message;
  }
  if (frontmatter === null || typeof frontmatter !== 'object' || Array.isArray(frontmatter)) {
    return 'SKILL.md has no frontmatter with name and description';
  }
  const { name, description } = frontmatter as Record<string, unknown>;
  if (typeof name !== 'string' || !SKILL_NAME.test(name)) {
    return `frontmatter name ${JSON.stringify(name)} is missing or not a skill name (letters, digits, ".", "_", "-")`;
  }
  if (typeof description !== 'string' || description.trim() === '') {
    return `skill '${name}' has no description in its frontmatter`;
  }
  return { name, description: description.trim().replace(/\s+/g, ' ') };
}

function listFolders(directory: string): string[] {
  try {
    return readdirSync(directory, { withFileTypes: true })
      .filter(
        (entry) =>
          entry.isDirectory() ||
          (entry.isSymbolicLink() && isDirectory(join(directory, entry.name))),
      )
      .map((entry) => entry.name)
      .sort();
  } catch {
    return []; // A missing layer directory is normal: most layers are empty.
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
