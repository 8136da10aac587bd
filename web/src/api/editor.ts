/**
 * The calls the agent editor makes: the agent itself (read, create, update), its live check, the
 * pickers' catalogs, and text generation, whose answer is a POST-ed Server-Sent Events stream
 * (read with sse.ts's readEvents). Reading an agent is agents.ts's getAgent.
 */
import type { CreateAgentBody, UpdateAgentBody } from '../../../src/api/contract.js';
import type { AgentCheck } from '../../../src/api/contract.js';
import type { GenerationEvent, GenerationKind } from '../../../src/api/contract.js';
import type { McpServerList, McpServerTools } from '../../../src/api/contract.js';
import type { DirectoryList, SkillList } from '../../../src/api/contract.js';
import type { AgentMutation, WritableLevel } from './agents';
import { api, authHeaders, refusalOf, seg } from './client';
import { readEvents } from './sse';
import type { ModelCatalog, ToolCatalog } from './types';

export type { AgentCheck, CheckDiagnostic } from '../../../src/api/contract.js';
export type { McpServerList, McpServerTools } from '../../../src/api/contract.js';
export type { DirectoryList, SkillList } from '../../../src/api/contract.js';
export type { GenerationEvent } from '../../../src/api/contract.js';
export type { CreateAgentBody, UpdateAgentBody };

export type { WritableLevel };

export function createAgent(body: CreateAgentBody) {
  return api<AgentMutation>('POST', '/workspace/agents', body);
}

export function updateAgent(name: string, level: WritableLevel, body: UpdateAgentBody) {
  return api<AgentMutation>('PATCH', `/workspace/agents/${seg(name)}?level=${level}`, body);
}

/** Either the form's fields (a create body) or a whole agent file as text. */
export type CheckInput = { agent: Record<string, unknown> } | { source: string };

export function checkAgent(input: CheckInput, level: WritableLevel, signal?: AbortSignal) {
  return api<AgentCheck>('POST', '/workspace/agents/check', { ...input, level }, signal);
}

export const listTools = () => api<ToolCatalog>('GET', '/workspace/tools');
export const listModels = () => api<ModelCatalog>('GET', '/workspace/models');
export const listSkills = () => api<SkillList>('GET', '/workspace/skills');
export const listMcpServers = () => api<McpServerList>('GET', '/workspace/mcp');
export const listMcpTools = (server: string, signal?: AbortSignal) =>
  api<McpServerTools>('GET', `/workspace/mcp/${seg(server)}/tools`, undefined, signal);

export function listDirectories(path: string, signal?: AbortSignal) {
  return api<DirectoryList>(
    'GET',
    `/workspace/directories?path=${encodeURIComponent(path)}`,
    undefined,
    signal,
  );
}

/**
 * One generation on the workspace's default model: each event as it arrives, until the stream
 * ends. A refusal before the stream opens (422: no usable default model) throws an ApiError;
 * aborting `signal` closes the connection, which cancels the model call on the server.
 */
export async function streamGeneration(
  body: { prompt: string; kind: GenerationKind },
  onEvent: (event: GenerationEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch('/workspace/generate', {
    method: 'POST',
    headers: {
      accept: 'text/event-stream',
      'content-type': 'application/json',
      ...authHeaders(),
    },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || response.body === null) throw await refusalOf(response);
  await readEvents(response.body, (message) => {
    let event: GenerationEvent;
    try {
      event = JSON.parse(message.data) as GenerationEvent;
    } catch {
      return; // not JSON, so not one of the envelope's events: nothing to show
    }
    onEvent(event);
  });
}
