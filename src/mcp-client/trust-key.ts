/**
 * The key that signs the approvals in the MCP trust store (trust-store.ts): 32 random bytes,
 * written once as hex to `<dataDir>/mcp-trust.key` (mode 0600) by the first approval, and read
 * again whenever it changed on disk. Each approval carries an HMAC-SHA256 under it over what it
 * approves (workspace, server, content hash, when, by whom), so an entry written by hand, copied
 * from another data directory, or recorded by a deputy that did not sign approvals yet approves
 * nothing: only a process that can read this key can make an entry count, and agents can read
 * neither the key nor the store (the data directory is a hidden, protected root).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DeputyError } from '../errors.js';
import { readRegularTextSync } from '../paths/regular-file.js';

export const MCP_TRUST_KEY_FILE = 'mcp-trust.key';

/** `<dataDir>/mcp-trust.key`. */
export function mcpTrustKeyPath(dataDir: string): string {
  return join(dataDir, MCP_TRUST_KEY_FILE);
}

/** What the file holds: 64 hex digits and an optional newline, nothing else. */
const KEY_TEXT = /^([0-9a-f]{64})\n?$/;

/** Bound into every mac, so a mac made for another purpose under the same key never verifies. */
const MAC_PREFIX = 'deputy-mcp-trust.v1';

/** The key, or why there is none: absent (nothing signed yet: problem null) or unusable. */
interface TrustKeyState {
  /** Changes whenever the file does (inode, size, mtime); `absent` when there is none. */
  stamp: string;
  key: Buffer | null;
  problem: string | null;
}

function trustKeyStamp(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return 'absent';
  }
}

/** Reads the key at `path` (never creates it: a lookup writes nothing). */
function readTrustKey(path: string): TrustKeyState {
  const stamp = trustKeyStamp(path);
  if (stamp === 'absent') return { stamp, key: null, problem: null };
  try {
    const hex = KEY_TEXT.exec(readRegularTextSync(path))?.[1];
    if (hex !== undefined) return { stamp, key: Buffer.from(hex, 'hex'), problem: null };
  } catch {
    // Unreadable, or not a regular file: the same answer as a wrong content, below.
  }
  return {
    stamp,
    key: null,
    problem: `${path} is not a key deputy wrote; no MCP approval verifies (move it away, then approve again)`,
  };
}

/**
 * The key at `path`, created first when there is none. Written whole to a private temporary
 * file, then hard-linked into place: link(2) fails if the name exists, so two processes
 * approving at once agree on one key (the loser reads the winner's), and no reader ever sees a
 * key half written. An unusable file is a `conflict`, never replaced: replacing it would
 * silently change what every entry means.
 */
function ensureTrustKey(path: string): Buffer {
  const found = readTrustKey(path);
  if (found.key !== null) return found.key;
  if (found.problem !== null) throw new DeputyError('conflict', found.problem);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  const made = readTrustKey(path);
  if (made.key === null) {
    throw new DeputyError('conflict', made.problem ?? `${path} could not be created`);
  }
  return made.key;
}

/** What an approval's mac covers. */
export interface SignedApproval {
  workspace: string;
  server: string;
  hash: string;
  approvedAt: string;
  approvedBy: string | null;
}

/** HMAC-SHA256 (hex) of the approval under `key`; a JSON array keeps the fields apart. */
function approvalMac(key: Buffer, approval: SignedApproval): string {
  const fields = [
    MAC_PREFIX,
    approval.workspace,
    approval.server,
    approval.hash,
    approval.approvedAt,
    approval.approvedBy,
  ];
  return createHmac('sha256', key).update(JSON.stringify(fields), 'utf8').digest('hex');
}

/** Whether `mac` is the approval's mac under `key`, compared in constant time. */
function approvalMacMatches(
  key: Buffer,
  approval: SignedApproval,
  mac: string | undefined,
): boolean {
  if (mac === undefined || !/^[0-9a-f]{64}$/.test(mac)) return false;
  const expected = Buffer.from(approvalMac(key, approval), 'hex');
  return timingSafeEqual(expected, Buffer.from(mac, 'hex'));
}

/**
 * Signing and checking one workspace's approvals with the key at `keyPath`, which is read again
 * whenever it changed on disk (another process may have created it).
 */
export function createApprovalSigner(keyPath: string, workspace: string) {
  let key: TrustKeyState | null = null;
  const current = (): TrustKeyState => {
    if (key === null || key.stamp !== trustKeyStamp(keyPath)) key = readTrustKey(keyPath);
    return key;
  };
  return {
    /** Why no approval verifies (a key file that is not deputy's), or null. */
    problem: (): string | null => current().problem,
    /** Whether `mac` is this deputy's signature of `server`'s approval; false without a key. */
    verifies: (
      server: string,
      approval: Omit<SignedApproval, 'workspace' | 'server'>,
      mac: string | undefined,
    ): boolean => {
      const secret = current().key;
      return secret !== null && approvalMacMatches(secret, { workspace, server, ...approval }, mac);
    },
    /** The mac of `server`'s approval, creating the key first when there is none. */
    sign: (server: string, approval: Omit<SignedApproval, 'workspace' | 'server'>): string =>
      approvalMac(ensureTrustKey(keyPath), { workspace, server, ...approval }),
  };
}
