/** One conversation that exercises every transcript shape: text, parallel tool calls, tool results
 * (one failed), a user message right after tool results, and a tool-only assistant turn. */
import type { ModelRequest } from '../../src/shared/model-contract.js';
import type { ToolSchema } from '../../src/shared/tools/tool-contract.js';

export const readTool: ToolSchema = {
  name: 'read',
  provider: 'FileSystem',
  description: 'Read a file.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
  toolClass: 'read',
  pathArguments: ['path'],
};

export const grepTool: ToolSchema = {
  name: 'grep',
  provider: 'FileSystem',
  description: 'Search files for a pattern.',
  inputSchema: {
    type: 'object',
    properties: { pattern: { type: 'string' }, path: { type: 'string' } },
    required: ['pattern'],
  },
  toolClass: 'read',
};

export const sampleRequest: ModelRequest = {
  system: 'You are a careful reviewer.',
  transcript: [
    { role: 'user', content: 'Find the TODOs in the project.' },
    {
      role: 'assistant',
      content: 'Let me look.',
      toolCalls: [
        { id: 'call_a', name: 'read', arguments: { path: 'README.md' } },
        { id: 'call_b', name: 'grep', arguments: { pattern: 'TODO', path: 'src' } },
      ],
    },
    {
      role: 'tool',
      toolCallId: 'call_a',
      toolName: 'read',
      content: '# deputy\nTODO: docs',
      isError: false,
    },
    {
      role: 'tool',
      toolCallId: 'call_b',
      toolName: 'grep',
      content: "[tool 'grep' failed] src: no such directory",
      isError: true,
    },
    { role: 'user', content: 'Also check the tests.' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_c', name: 'grep', arguments: { pattern: 'TODO', path: 'test' } }],
    },
    {
      role: 'tool',
      toolCallId: 'call_c',
      toolName: 'grep',
      content: 'test/a.test.ts:3',
      isError: false,
    },
  ],
  tools: [readTool, grepTool],
};
