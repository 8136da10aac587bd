/**
 * Which `.mcp.json` servers a person approved, and exactly what they approved: the server's
 * content hash (src/mcp/trust-hash.ts). Kept in `<dataDir>/mcp-trust.json`, which agents can
 * neither read nor write (the data directory is a hidden, protected root), per workspace: a
 * stdio server runs in the workspace, so one command means different things in two of them.
 *
 * The file is read again whenever it changed on disk (size, mtime, inode), so an approval made
 * by `deputy mcp trust` in another process applies to a running worker's next lookup. Writes
 * replace it atomically. A file that is not what this module writes approves nothing and is a
 * `problem()`: never a reason to start a server, never a reason for a command to fail but the
 * approving ones, which refuse to overwrite it.
 *
 * Each approval is signed with the data directory's own key (trust-key.ts). An entry whose mac
 * is missing or wrong (written by hand, copied from another data directory, or recorded by a
 * deputy that did not sign approvals yet) approves nothing and is reported by `unsigned()`; it
 * does not spoil the other entries, and approving the server again replaces it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../definitions/registry/atomic-write.js';
import { DeputyError } from '../errors.js';
import { readRegularTextSync } from '../paths/regular-file.js';
import { createApprovalSigner, mcpTrustKeyPath } from './trust-key.js';

export const MCP_TRUST_FILE = 'mcp-trust.json';

/** `<dataDir>/mcp-trust.json`. */
export function mcpTrustPath(dataDir: string): string {
  return join(dataDir, MCP_TRUST_FILE);
}

const ApprovalSchema = z.object({
  /** sha256 (hex) of the server's connection fields as written. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  approvedAt: z.string(),
  /** `cli:<login>` or the API caller's user id; null when auth is off. */
  approvedBy: z.string().nullable(),
  /**
   * HMAC-SHA256 (hex) of workspace, server, hash, approvedAt and approvedBy under the data
   * directory's key. Optional in the shape only, so a file with entries of an earlier deputy
   * still reads: such an entry approves nothing.
   */
  mac: z.string().optional(),
});
type StoredApproval = z.infer<typeof ApprovalSchema>;
/** An approval whose mac verified: what a person approved through deputy. */
export type McpApproval = Omit<StoredApproval, 'mac'>;

const TrustFileSchema = z.object({
  v: z.literal(1),
  /** Real workspace path -> server name -> its approval. */
  workspaces: z.record(z.string(), z.record(z.string(), ApprovalSchema)),
});
type TrustFile = z.infer<typeof TrustFileSchema>;

export interface McpTrustStore {
  readonly path: string;
  /** The approval of `server` in this workspace, if a person gave one (its mac verified). */
  approval(server: string): McpApproval | undefined;
  /**
   * Whether the store has an entry for `server` in this workspace that this deputy did not sign
   * (no mac, or a wrong one): it approves nothing, and `deputy mcp trust` must be run again.
   */
  unsigned(server: string): boolean;
  /** Why the file approves nothing (not JSON, not this module's shape, an unusable key), or null. */
  problem(): string | null;
  /** Records that a person approved `hash` for `server` (replacing an earlier approval). */
  approve(server: string, hash: string, approvedBy: string | null): Promise<McpApproval>;
  /** Withdraws the approval of `server`; false when there was none. */
  revoke(server: string): Promise<boolean>;
}

export function createMcpTrustStore(options: {
  dataDir: string;
  workspace: string;
  now?: () => Date;
}): McpTrustStore {
  const path = mcpTrustPath(options.dataDir);
  const signer = createApprovalSigner(mcpTrustKeyPath(options.dataDir), options.workspace);
  const now = options.now ?? (() => new Date());
  let cached: { stamp: string; file: TrustFile | null; problem: string | null } | null = null;
  /** Approvals and withdrawals of this process, one at a time (each reads, then writes). */
  let writing: Promise<unknown> = Promise.resolve();

  const read = (): { file: TrustFile | null; problem: string | null } => {
    let stamp = 'absent';
    try {
      const stats = statSync(path);
      stamp = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    } catch {
      // No file: nothing approved yet.
    }
    if (cached?.stamp === stamp) return cached;
    cached = { stamp, ...parse(stamp) };
    return cached;
  };

  const parse = (stamp: string): { file: TrustFile | null; problem: string | null } => {
    if (stamp === 'absent') return { file: { v: 1, workspaces: {} }, problem: null };
    try {
      const parsed = TrustFileSchema.safeParse(JSON.parse(readRegularTextSync(path)));
      if (parsed.success) return { file: parsed.data, problem: null };
    } catch {
      // Unreadable or not JSON: the same answer as a wrong shape, below.
    }
    return {
      file: null,
      problem: `${path} is not a trust file deputy wrote; it approves no MCP server (move it away, then approve again)`,
    };
  };

  const servers = (file: TrustFile | null) => file?.workspaces[options.workspace] ?? {};

  const stored = (server: string): StoredApproval | undefined => {
    const approvals = servers(read().file);
    return Object.hasOwn(approvals, server) ? approvals[server] : undefined;
  };

  const signed = (server: string, { mac, ...approval }: StoredApproval): boolean =>
    signer.verifies(server, approval, mac);

  const change = <T>(edit: (file: TrustFile) => T): Promise<T> => {
    const next = writing.then(async () => {
      cached = null;
      const { file, problem } = read();
      if (file === null) throw new DeputyError('conflict', problem ?? `${path} is unusable`);
      const result = edit(file);
      await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
      cached = null;
      return result;
    });
    writing = next.catch(() => undefined);
    return next;
  };

  return {
    path,
    approval: (server) => {
      const entry = stored(server);
      if (entry === undefined || !signed(server, entry)) return undefined;
      return { hash: entry.hash, approvedAt: entry.approvedAt, approvedBy: entry.approvedBy };
    },
    unsigned: (server) => {
      const entry = stored(server);
      return entry !== undefined && !signed(server, entry);
    },
    problem: () => read().problem ?? signer.problem(),
    approve: (server, hash, approvedBy) =>
      change((file) => {
        const approval: McpApproval = { hash, approvedAt: now().toISOString(), approvedBy };
        // The key is created by the first approval; one that is not deputy's refuses, unreplaced.
        const mac = signer.sign(server, approval);
        file.workspaces[options.workspace] = { ...servers(file), [server]: { ...approval, mac } };
        return approval;
      }),
    revoke: (server) =>
      change((file) => {
        const approvals = { ...servers(file) };
        if (!Object.hasOwn(approvals, server)) return false;
        delete approvals[server];
        file.workspaces[options.workspace] = approvals;
        return true;
      }),
  };
}
