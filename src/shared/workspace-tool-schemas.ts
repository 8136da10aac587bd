import type { ToolSchema } from './tool-contract.js';

/**
 * Schemas of the built-in workspace tools (CAP-1). They live apart from the implementations so
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
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the workspace root.' },
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
    required: ['path'],
    additionalProperties: false,
  },
};

export const WRITE_TOOL_SCHEMA: ToolSchema = {
  name: 'write',
  provider: FILE_SYSTEM,
  toolClass: 'write',
  pathArguments: ['path'],
  description:
    'Create or overwrite a file in the workspace with the given content. Missing parent ' +
    'directories are created. Prefer edit for changing part of an existing file.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the workspace root.' },
      content: { type: 'string', description: 'The complete new content of the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
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
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the workspace root.' },
      old_string: { type: 'string', description: 'Exact text to replace.' },
      new_string: { type: 'string', description: 'Text to put in its place.' },
      replace_all: {
        type: 'boolean',
        description: 'Replace every occurrence instead of requiring exactly one (default false).',
      },
    },
    required: ['path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
};

export const GLOB_TOOL_SCHEMA: ToolSchema = {
  name: 'glob',
  provider: FILE_SYSTEM,
  toolClass: 'read',
  pathArguments: ['path'],
  description:
    'List workspace files matching a glob pattern (e.g. "src/**/*.ts"), as sorted ' +
    'workspace-relative paths. Hidden files, node_modules, .git and symbolic links are skipped. ' +
    'The pattern must ' +
    'be relative and may not contain "..".',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Glob pattern, relative to path.' },
      path: {
        type: 'string',
        description: 'Directory to search in, relative to the workspace root (default: the root).',
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
};

export const GREP_TOOL_SCHEMA: ToolSchema = {
  name: 'grep',
  provider: FILE_SYSTEM,
  toolClass: 'read',
  pathArguments: ['path'],
  description:
    'Search file contents in the workspace for a regular expression (JavaScript syntax) or, with ' +
    'fixed_strings, a literal string. Returns matching lines as "path:line: text". Narrow the ' +
    'search with path (a file or directory) and glob (e.g. "**/*.md").',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        description: 'Regular expression, or literal text with fixed_strings.',
      },
      path: {
        type: 'string',
        description:
          'File or directory to search, relative to the workspace root (default: the root).',
      },
      glob: {
        type: 'string',
        description: 'Only search files matching this glob, relative to path (default "**/*").',
      },
      fixed_strings: {
        type: 'boolean',
        description: 'Treat pattern as literal text, not a regular expression (default false).',
      },
      ignore_case: { type: 'boolean', description: 'Match case-insensitively (default false).' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
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
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line to run.' },
      timeout_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: 600,
        description: 'Kill the command after this many seconds (default 120, max 600).',
      },
    },
    required: ['command'],
    additionalProperties: false,
  },
};
