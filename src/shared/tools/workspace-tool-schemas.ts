import { objectSchema, stringProperty, type ToolSchema } from './tool-contract.js';

/**
 * Schemas of the built-in workspace tools. They live apart from the implementations so
 * capability resolution (and the workflow sandbox) can list them without loading Node code.
 */

const FILE_SYSTEM = 'FileSystem';

export const READ_TOOL_SCHEMA: ToolSchema = {
  name: 'read',
  provider: FILE_SYSTEM,
  toolClass: 'read',
  pathArguments: ['path'],
  description:
    'Read a text file in the workspace. Returns its lines prefixed with 1-based line numbers. ' +
    'Use offset and limit to page through long files. Directories and binary files are refused; ' +
    'use glob to list files.',
  inputSchema: objectSchema(
    {
      path: stringProperty('File path, relative to the workspace root.'),
      offset: {
        type: 'integer',
        minimum: 1,
        description: '1-based line number to start reading from (default 1).',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        description: 'Maximum number of lines to return (default 2000).',
      },
    },
    ['path'],
  ),
};

export const WRITE_TOOL_SCHEMA: ToolSchema = {
  name: 'write',
  provider: FILE_SYSTEM,
  toolClass: 'write',
  pathArguments: ['path'],
  description:
    'Create or overwrite a file in the workspace with the given content. Missing parent ' +
    'directories are created. Prefer edit for changing part of an existing file.',
  inputSchema: objectSchema(
    {
      path: stringProperty('File path, relative to the workspace root.'),
      content: stringProperty('The complete new content of the file.'),
    },
    ['path', 'content'],
  ),
};

export const EDIT_TOOL_SCHEMA: ToolSchema = {
  name: 'edit',
  provider: FILE_SYSTEM,
  toolClass: 'write',
  pathArguments: ['path'],
  description:
    'Replace text in an existing workspace file. old_string must match the file exactly ' +
    '(including whitespace) and occur exactly once, unless replace_all is true, in which case ' +
    'every occurrence is replaced. Include enough surrounding context to make it unique.',
  inputSchema: objectSchema(
    {
      path: stringProperty('File path, relative to the workspace root.'),
      old_string: stringProperty('Exact text to replace.'),
      new_string: stringProperty('Text to put in its place.'),
      replace_all: {
        type: 'boolean',
        description: 'Replace every occurrence instead of requiring exactly one (default false).',
      },
    },
    ['path', 'old_string', 'new_string'],
  ),
};

export const GLOB_TOOL_SCHEMA: ToolSchema = {
  name: 'glob',
  provider: FILE_SYSTEM,
  toolClass: 'read',
  pathArguments: ['path'],
  description:
    'List workspace files matching a glob pattern (e.g. "src/**/*.ts"), as sorted ' +
    'workspace-relative paths. Hidden files, node_modules and .git are skipped unless the ' +
    'pattern names them; symbolic links are followed while they stay inside the workspace, and ' +
    'the result says what was skipped. The pattern must be relative and may not contain "..".',
  inputSchema: objectSchema(
    {
      pattern: stringProperty('Glob pattern, relative to path.'),
      path: stringProperty(
        'Directory to search in, relative to the workspace root (default: the root).',
      ),
    },
    ['pattern'],
  ),
};

export const GREP_TOOL_SCHEMA: ToolSchema = {
  name: 'grep',
  provider: FILE_SYSTEM,
  toolClass: 'read',
  pathArguments: ['path'],
  description:
    'Search file contents in the workspace for a regular expression (RE2 syntax: no ' +
    'backreferences or lookahead) or, with ' +
    'fixed_strings, a literal string. Returns matching lines as "path:line: text". Narrow the ' +
    'search with path (a file or directory) and glob (e.g. "**/*.md").',
  inputSchema: objectSchema(
    {
      pattern: stringProperty('Regular expression, or literal text with fixed_strings.'),
      path: stringProperty(
        'File or directory to search, relative to the workspace root (default: the root).',
      ),
      glob: stringProperty(
        'Only search files matching this glob, relative to path (default "**/*").',
      ),
      fixed_strings: {
        type: 'boolean',
        description: 'Treat pattern as literal text, not a regular expression (default false).',
      },
      ignore_case: { type: 'boolean', description: 'Match case-insensitively (default false).' },
    },
    ['pattern'],
  ),
};

export const FILE_SYSTEM_TOOL_SCHEMAS: ToolSchema[] = [
  READ_TOOL_SCHEMA,
  WRITE_TOOL_SCHEMA,
  EDIT_TOOL_SCHEMA,
  GLOB_TOOL_SCHEMA,
  GREP_TOOL_SCHEMA,
];

export const BASH_TOOL_SCHEMA: ToolSchema = {
  name: 'bash',
  provider: 'Bash',
  toolClass: 'exec',
  description:
    'Run a shell command with bash -c in the workspace root. Returns combined stdout and stderr ' +
    'and the exit code. Commands get a minimal environment (PATH, HOME, LANG) and are killed ' +
    'after timeout_seconds (default 120, max 600). Output is truncated when long.',
  inputSchema: objectSchema(
    {
      command: stringProperty('The command line to run.'),
      timeout_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: 600,
        description: 'Kill the command after this many seconds (default 120, max 600).',
      },
    },
    ['command'],
  ),
};
