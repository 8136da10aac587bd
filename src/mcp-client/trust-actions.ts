/**
 * Approving a `.mcp.json` server, and withdrawing the approval: what `POST|DELETE
 * /workspace/mcp/:server/trust` and `deputy mcp trust|untrust` do, in one place. An approval
 * names the server's hash as the person saw it (the listing's `trust.hash`, or the one `deputy
 * mcp trust` prints); if the file says something else by then, nothing is approved (409). Only
 * `.mcp.json` servers take an approval: config.yaml and definitions are written by people.
 * Neither starts nor stops anything: the API's routes reconnect their own runtime after, and
 * every other process sees the trust file change on its next lookup.
 */
import { DeputyError } from '../errors.js';
import { mcpTrustHash, needsApproval, wouldRun } from './start-gate.js';
import type { McpServerSpec } from './server-spec.js';
import { clip } from '../shared/clip.js';
import type { McpTrustAnswer } from './mcp-view-schemas.js';
import { findMcpServer, type McpViewSources } from './mcp-view.js';

/** The `.mcp.json` server `name`, or the error that says why there is none to approve. */
export function mcpJsonServer(sources: McpViewSources, name: string): McpServerSpec {
  const known = findMcpServer(sources, name);
  const shown = clip(name, 64);
  if (known === undefined) {
    const broken = sources.config.mcpJsonProblem;
    throw new DeputyError(
      'not-found',
      `no MCP server named '${shown}'${broken === null ? '' : ` (${broken})`}`,
      { code: 'mcp_server_not_found' },
    );
  }
  if (!needsApproval(known.spec)) {
    throw new DeputyError(
      'invalid',
      `MCP server '${shown}' is written in ${known.spec.source}, which only people write: it starts without an approval`,
      { code: 'mcp_server_needs_no_approval' },
    );
  }
  return known.spec;
}

export interface TrustRequest {
  /** The hash the person saw; none (the CLI without `--hash`): what the file says now. */
  hash?: string | undefined;
  /** Recorded with the approval: `cli:<login>`, the API caller's id, or null (auth off). */
  by: string | null;
}

export async function trustMcpServer(
  sources: McpViewSources,
  name: string,
  request: TrustRequest,
): Promise<McpTrustAnswer> {
  const spec = mcpJsonServer(sources, name);
  const hash = mcpTrustHash(spec);
  if (request.hash !== undefined && request.hash !== hash) {
    throw new DeputyError(
      'conflict',
      `MCP server '${spec.name}' in .mcp.json is no longer what was shown (its hash is now ${hash}): nothing was approved; look at it again`,
      { code: 'mcp_server_changed' },
    );
  }
  const approval = await sources.runtime.trust.approve(spec.name, hash, request.by);
  const check = sources.runtime.checkStart(spec);
  return {
    v: 1,
    server: spec.name,
    approved: true,
    hash,
    approvedAt: approval.approvedAt,
    approvedBy: approval.approvedBy,
    wouldRun: wouldRun(spec),
    problem: check.allowed ? null : check.problem,
  };
}

export async function untrustMcpServer(
  sources: McpViewSources,
  name: string,
): Promise<McpTrustAnswer> {
  const spec = mcpJsonServer(sources, name);
  await sources.runtime.trust.revoke(spec.name);
  const check = sources.runtime.checkStart(spec);
  return {
    v: 1,
    server: spec.name,
    approved: false,
    hash: mcpTrustHash(spec),
    approvedAt: null,
    approvedBy: null,
    wouldRun: wouldRun(spec),
    problem: check.allowed ? null : check.problem,
  };
}
