/**
 * The MCP servers page's calls: the listing, and a person's approval of a `.mcp.json` server (or
 * its withdrawal). An approval names the hash the page showed, so what is approved is exactly
 * what the person saw: a file changed meanwhile answers 409 and nothing is approved.
 */
import type { McpServerList, McpTrustAnswer } from '../../../src/api/contract.js';
import { api, seg } from './client';

export type { McpServerList, McpTrustAnswer } from '../../../src/api/contract.js';
export type McpServerEntry = McpServerList['servers'][number];

export const listMcpServers = (signal?: AbortSignal) =>
  api<McpServerList>('GET', '/workspace/mcp', undefined, signal);

export const approveMcpServer = (name: string, hash: string) =>
  api<McpTrustAnswer>('POST', `/workspace/mcp/${seg(name)}/trust`, { hash });

export const withdrawMcpApproval = (name: string) =>
  api<McpTrustAnswer>('DELETE', `/workspace/mcp/${seg(name)}/trust`);
