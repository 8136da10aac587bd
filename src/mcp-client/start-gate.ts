/**
 * Starting what a file names is a decision. A server from `.mcp.json`, a file agents
 * can write without a card, is started (by a worker, a listing, the console, `deputy mcp`, a
 * delegation that declares it) only when
 *
 * - a person approved it, and what they approved is what the file says now: the approval holds
 *   the sha256 of the server's connection fields as written (`${NAME}` unresolved), so a changed
 *   command, argument, env entry, URL or header needs a new approval; and
 * - each `${NAME}` it writes (in command, args, env, url, headers) names a variable that
 *   config.yaml allows for it (`mcpJson.variables.<server>`): otherwise one write could send any
 *   secret of the worker's environment to a server or URL the agent chose.
 *
 * Servers written in config.yaml or inline in a definition need neither: people write those
 * files, and an agent's write to them needs a card.
 */
import { connectionHash, type McpServerSpec } from './server-spec.js';
import type { McpApproval, McpTrustStore } from './trust-store.js';

/** Where the servers that need an approval come from. */
export const MCP_JSON_SOURCE = '.mcp.json';

export function needsApproval(spec: Pick<McpServerSpec, 'source'>): boolean {
  return spec.source === MCP_JSON_SOURCE;
}

/** What an approval of a `.mcp.json` server names: its connection hash (server-spec.ts). */
export const mcpTrustHash = connectionHash;

export type McpStartCheck =
  | { allowed: true }
  | {
      allowed: false;
      /** `untrusted`: waits for a person's approval; `refused`: references a variable not allowed. */
      status: 'untrusted' | 'refused';
      /**
       * For `untrusted`: never approved, approved as something else, or an entry in the trust
       * store that this deputy did not sign (trust-key.ts), which approves nothing.
       */
      reason?: 'new' | 'changed' | 'unsigned';
      /** What an approval must name. */
      hash: string;
      /** One line, safe to show: names the server and variables, never a value. */
      problem: string;
    };

export interface McpStartContext {
  /** config.yaml's `mcpJson.variables`: server name -> the variables it may reference. */
  variables: Readonly<Record<string, readonly string[]>>;
  trust: Pick<McpTrustStore, 'approval' | 'unsigned'>;
}

/** Whether `spec` may be started now, and if not, why (variables first: approving cannot help). */
export function checkStart(spec: McpServerSpec, context: McpStartContext): McpStartCheck {
  if (!needsApproval(spec)) return { allowed: true };
  const hash = mcpTrustHash(spec);
  const server = `MCP server '${spec.name}'`;
  const allowed = Object.hasOwn(context.variables, spec.name)
    ? (context.variables[spec.name] ?? [])
    : [];
  const { names, odd } = references(spec);
  const denied = names.filter((name) => !allowed.includes(name));
  if (odd) {
    return {
      allowed: false,
      status: 'refused',
      hash,
      problem: `${server} (${MCP_JSON_SOURCE}) writes a \${...} that is not a plain variable reference; not started`,
    };
  }
  if (denied.length > 0) {
    const list = denied.map((name) => `\${${name}}`).join(', ');
    return {
      allowed: false,
      status: 'refused',
      hash,
      problem: `${server} (${MCP_JSON_SOURCE}) references ${list}, which config.yaml does not allow for it (mcpJson.variables.${spec.name}); not started`,
    };
  }
  const approval: McpApproval | undefined = context.trust.approval(spec.name);
  if (approval?.hash === hash) return { allowed: true };
  const reason = approvalState(context.trust, spec.name, approval);
  const how = `a person approves it with \`deputy mcp trust ${spec.name}\` or in the console`;
  return {
    allowed: false,
    status: 'untrusted',
    reason,
    hash,
    problem:
      reason === 'new'
        ? `${server} from ${MCP_JSON_SOURCE} is not approved yet (new); ${how}`
        : reason === 'unsigned'
          ? `${server} from ${MCP_JSON_SOURCE}: its entry in the trust store (mcp-trust.json) is not signed by this deputy (written by hand, copied from another data directory, or recorded before approvals were signed), so it approves nothing; ${how}`
          : `${server} in ${MCP_JSON_SOURCE} changed since it was approved; ${how}`,
  };
}

/**
 * Why a server that does not match an approval waits: a signed approval of other content
 * (`changed`), an entry this deputy did not sign (`unsigned`), or none at all (`new`).
 */
export function approvalState(
  trust: Pick<McpTrustStore, 'unsigned'>,
  server: string,
  approval: McpApproval | undefined,
): 'new' | 'changed' | 'unsigned' {
  if (approval !== undefined) return 'changed';
  return trust.unsigned(server) ? 'unsigned' : 'new';
}

/** `${NAME}` and `${NAME:-default}` (Claude Code's forms) in every field that could expand. */
const REFERENCE = /\$\{([^}]*)\}/g;
const VARIABLE = /^([A-Za-z_][A-Za-z0-9_]*)(:-.*)?$/s;

function references(spec: McpServerSpec): { names: string[]; odd: boolean } {
  const texts = [
    spec.command ?? '',
    ...spec.args,
    ...Object.values(spec.env),
    spec.endpoint ?? '',
    ...Object.values(spec.headers),
  ];
  const names = new Set<string>();
  let odd = false;
  for (const text of texts) {
    for (const match of text.matchAll(REFERENCE)) {
      const name = VARIABLE.exec(match[1] ?? '')?.[1];
      if (name === undefined) odd = true;
      else names.add(name);
    }
  }
  return { names: [...names], odd };
}

/**
 * What a server would run, for a person deciding whether to approve it: the command and its
 * arguments, or the URL, as written (`${NAME}` unresolved), and the names of its env entries and
 * headers (their values may be literal secrets, and a name says what is set).
 */
export interface McpWouldRun {
  command?: string;
  args?: string[];
  url?: string;
  envNames: string[];
  headerNames: string[];
}

export function wouldRun(spec: McpServerSpec): McpWouldRun {
  return {
    ...(spec.transport === 'stdio'
      ? { ...(spec.command === undefined ? {} : { command: spec.command }), args: [...spec.args] }
      : spec.endpoint === undefined
        ? {}
        : { url: shownUrl(spec.endpoint) }),
    envNames: Object.keys(spec.env).sort(),
    headerNames: Object.keys(spec.headers).sort(),
  };
}

/**
 * The URL with its credentials replaced by `***`: user info, and each query value (the names
 * stay: `?api_key=***` says what is sent). Scheme, host, port and path, which decide where a
 * request goes, stay as written.
 */
function shownUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return '(not a URL)';
  }
  const user = url.username === '' && url.password === '' ? '' : '***@';
  const query = [...url.searchParams.keys()].map((key) => `${key}=***`).join('&');
  return `${url.protocol}//${user}${url.host}${url.pathname}${query === '' ? '' : `?${query}`}`;
}
