/** Where each definition level lives on disk and how levels rank against each other. */
import { join } from 'node:path';
import type { DeputyConfig } from '../config/schema.js';
import type { DefinitionLevel } from '../shared/capability-snapshot.js';

export interface LevelSource {
  level: DefinitionLevel;
  /** Directory scanned for `*.md` files. */
  directory: string;
  /** Scan sub-directories too (ecosystem folders are often organised in categories). */
  recursive: boolean;
  /** Read-only through deputy's API. */
  readOnly: boolean;
  /** The configured directory this level lives under (workspace, user dir, project root). */
  base: string;
}

/** Lookup precedence when names collide, highest first. Also the order of `list()`. */
export const LEVEL_PRECEDENCE: readonly DefinitionLevel[] = [
  'project',
  'user',
  'ecosystem',
  'builtin',
];

/** Levels authoring routes may write to. */
export const WRITABLE_LEVELS = ['user', 'project'] as const;
export type WritableLevel = (typeof WRITABLE_LEVELS)[number];

export function levelRank(level: DefinitionLevel): number {
  return LEVEL_PRECEDENCE.indexOf(level);
}

export type LevelPaths = Pick<DeputyConfig, 'projectRoot' | 'userDir' | 'workspace'>;

export function levelSources(config: LevelPaths): LevelSource[] {
  const { projectRoot, userDir, workspace } = config;
  const source = (
    level: DefinitionLevel,
    base: string,
    directory: string[],
    recursive: boolean,
  ): LevelSource => ({
    level,
    base,
    directory: join(base, ...directory),
    recursive,
    readOnly: level === 'builtin' || level === 'ecosystem',
  });
  return [
    source('builtin', projectRoot, ['agents'], false),
    source('user', userDir, ['agents'], false),
    source('project', workspace, ['.subagents', 'agents'], false),
    source('ecosystem', workspace, ['.claude', 'agents'], true),
    source('ecosystem', workspace, ['.qwen', 'agents'], true),
  ];
}

export function writableDirectory(config: LevelPaths, level: WritableLevel): string {
  return level === 'user'
    ? join(config.userDir, 'agents')
    : join(config.workspace, '.subagents', 'agents');
}

/** README.md next to definitions documents them; it is not an agent. */
export function isDefinitionFileName(fileName: string): boolean {
  return (
    fileName.toLowerCase().endsWith('.md') &&
    fileName.toLowerCase() !== 'readme.md' &&
    !fileName.startsWith('.')
  );
}
