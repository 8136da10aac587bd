/** Where each definition level lives on disk (DEF-3) and how levels rank against each other. */
import { join } from 'node:path';
import type { DeputyConfig } from '../config.js';
import type { DefinitionLevel } from '../shared/capability-snapshot.js';

export interface LevelSource {
  level: DefinitionLevel;
  /** Directory scanned for `*.md` files. */
  directory: string;
  /** Scan sub-directories too (ecosystem folders are often organised in categories). */
  recursive: boolean;
  /** Read-only through deputy's API. */
  readOnly: boolean;
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
  return [
    {
      level: 'builtin',
      directory: join(config.projectRoot, 'agents'),
      recursive: false,
      readOnly: true,
    },
    { level: 'user', directory: join(config.userDir, 'agents'), recursive: false, readOnly: false },
    {
      level: 'project',
      directory: join(config.workspace, '.subagents', 'agents'),
      recursive: false,
      readOnly: false,
    },
    {
      level: 'ecosystem',
      directory: join(config.workspace, '.claude', 'agents'),
      recursive: true,
      readOnly: true,
    },
    {
      level: 'ecosystem',
      directory: join(config.workspace, '.qwen', 'agents'),
      recursive: true,
      readOnly: true,
    },
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
