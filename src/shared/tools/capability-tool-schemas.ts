import { objectSchema, stringProperty, type JsonSchema, type ToolSchema } from './tool-contract.js';

/**
 * Schemas of the capability tools (skills, MCP, knowledge, memory). They live apart from the
 * implementations so resolution stays pure and importable without Node-side code; the
 * implementations reuse the very same objects, so what the model sees and what runs cannot
 * drift apart.
 */

export const KB_SEARCH_TOOL_SCHEMA: ToolSchema = {
  name: 'kb_search',
  provider: 'Knowledge',
  toolClass: 'read',
  description:
    'Search the declared knowledge sources line by line for the words of the query. Returns ranked ' +
    '"path:line: text" hits: lines holding the exact phrase first, then lines matching the most ' +
    'words. A hit is one line, not the answer: open the file with read to see its context. At ' +
    'most 50 hits and 8 MiB read per call; when a budget cuts the search the result says so.',
  inputSchema: objectSchema(
    {
      query: stringProperty('Words to look for (case-insensitive).'),
      source: stringProperty('Name of one knowledge source to search (default: all of them).'),
    },
    ['query'],
  ),
};

/*
 * Memory tools deliberately have no scope, directory or path argument: the directory is fixed
 * when the tool is built, so no argument a model forges can point elsewhere.
 * `memory_write` is write-class (it must run at most once: an append is not idempotent) but
 * declares `pathArguments: []`: it touches no workspace path, only its own fixed directory.
 */
export const MEMORY_WRITE_TOOL_SCHEMA: ToolSchema = {
  name: 'memory_write',
  provider: 'Memory',
  toolClass: 'write',
  pathArguments: [],
  confined: true,
  description:
    "Append an entry to your memory. Without name it goes to today's daily log (searched by " +
    'memory_search); with name it is appended to the resident file <name>.md, which is shown ' +
    'in your instructions next time (keep resident files short: 4 KiB each, 12 KiB in all).',
  inputSchema: objectSchema(
    {
      content: stringProperty('The text to remember.'),
      name: stringProperty(
        'Resident file name: letters, digits, ".", "_", "-" only; ".md" is added.',
      ),
    },
    ['content'],
  ),
};

export const MEMORY_READ_TOOL_SCHEMA: ToolSchema = {
  name: 'memory_read',
  provider: 'Memory',
  toolClass: 'read',
  pathArguments: [],
  description:
    'Read one resident memory file by name. Without name, lists the resident files and daily logs.',
  inputSchema: objectSchema({
    name: stringProperty('Resident file name, with or without ".md".'),
  }),
};

export const MEMORY_SEARCH_TOOL_SCHEMA: ToolSchema = {
  name: 'memory_search',
  provider: 'Memory',
  toolClass: 'read',
  pathArguments: [],
  description:
    'Search your memory (resident files and daily logs) for the words of the query. Returns ' +
    'ranked "file:line: text" hits, at most 50.',
  inputSchema: objectSchema(
    {
      query: stringProperty('Words to look for (case-insensitive).'),
    },
    ['query'],
  ),
};

export const MEMORY_TOOL_SCHEMAS: ToolSchema[] = [
  MEMORY_WRITE_TOOL_SCHEMA,
  MEMORY_READ_TOOL_SCHEMA,
  MEMORY_SEARCH_TOOL_SCHEMA,
];

export const USE_SKILL_TOOL_SCHEMA: ToolSchema = {
  name: 'use_skill',
  provider: 'Skills',
  toolClass: 'read',
  description:
    'Load the full instructions of one of your skills (listed in your instructions) by name.',
  inputSchema: objectSchema({ name: stringProperty('The skill name.') }, ['name']),
};

export const MCP_SEARCH_TOOL_SCHEMA: ToolSchema = {
  name: 'mcp_search',
  provider: 'Mcp',
  toolClass: 'read',
  description: 'Find tools of your MCP servers whose name or description matches the query.',
  inputSchema: objectSchema(
    {
      query: stringProperty('Words to look for.'),
      server: stringProperty('Only this server (default: all of yours).'),
    },
    ['query'],
  ),
};

export const MCP_DESCRIBE_TOOL_SCHEMA: ToolSchema = {
  name: 'mcp_describe',
  provider: 'Mcp',
  toolClass: 'read',
  description: 'Show the description and argument schema of one tool of one of your MCP servers.',
  inputSchema: objectSchema(
    {
      server: stringProperty('The server name.'),
      tool: stringProperty('The tool name on that server.'),
    },
    ['server', 'tool'],
  ),
};

export const MCP_CALL_TOOL_SCHEMA: ToolSchema = {
  name: 'mcp_call',
  provider: 'Mcp',
  toolClass: 'mcp',
  description:
    "Call a tool of one of your MCP servers. Tools outside the server's approve list wait for a " +
    'human decision first.',
  inputSchema: objectSchema(
    {
      server: stringProperty('The server name.'),
      tool: stringProperty('The tool name on that server.'),
      arguments: { type: 'object', description: 'Arguments for the tool.' },
    },
    ['server', 'tool'],
  ),
};

export const MCP_GATEWAY_TOOL_SCHEMAS: ToolSchema[] = [
  MCP_SEARCH_TOOL_SCHEMA,
  MCP_DESCRIBE_TOOL_SCHEMA,
  MCP_CALL_TOOL_SCHEMA,
];

/** Wire name of an MCP tool exposed directly by a `mcp:server:tool` spec. */
export function mcpDirectToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/**
 * Schema of a directly exposed MCP tool. Its real argument schema comes from the server at run
 * time (the MCP client is not part of resolution), so resolution only fixes name and class.
 */
export function mcpDirectToolSchema(
  server: string,
  tool: string,
  live?: { description?: string; inputSchema?: JsonSchema },
): ToolSchema {
  return {
    name: mcpDirectToolName(server, tool),
    provider: 'Mcp',
    toolClass: 'mcp',
    description:
      live?.description === undefined || live.description === ''
        ? `Tool '${tool}' of MCP server '${server}'.`
        : `${live.description} (MCP server '${server}')`,
    inputSchema: live?.inputSchema ?? { type: 'object', additionalProperties: true },
    mcp: { server, tool },
  };
}
