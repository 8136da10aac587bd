/**
 * The start gate of `.mcp.json` servers (src/mcp-client/start-gate.ts) and the approvals it reads
 * (src/mcp-client/trust-store.ts), on real files: what the hash covers, which references count, what a
 * trust file that deputy did not write approves (nothing), and what an entry this deputy did not
 * sign approves (nothing either).
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStart, mcpTrustHash } from '../../src/mcp-client/start-gate.js';
import type { McpServerSpec } from '../../src/mcp-client/server-spec.js';
import { createMcpTrustStore } from '../../src/mcp-client/trust-store.js';

const base: McpServerSpec = {
  name: 'files',
  transport: 'stdio',
  command: 'files-mcp',
  args: ['--root', '.'],
  env: { A: '1', B: '2' },
  headers: {},
  enabled: true,
  source: '.mcp.json',
};

function store() {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-trust-'));
  return { dataDir, trust: createMcpTrustStore({ dataDir, workspace: '/ws' }) };
}

describe('mcpTrustHash', () => {
  it('covers every connection field as written, not the order of a record', () => {
    const hash = mcpTrustHash(base);
    expect(mcpTrustHash({ ...base, env: { B: '2', A: '1' } })).toBe(hash);
    expect(mcpTrustHash({ ...base, enabled: false, source: 'elsewhere' })).toBe(hash);
    const changes: Array<Partial<McpServerSpec>> = [
      { command: 'sh' },
      { args: ['--root', '/'] },
      { env: { A: '1', B: '2', NODE_OPTIONS: '--require x' } },
      { env: { A: '${SECRET}', B: '2' } },
      { transport: 'http', endpoint: 'http://127.0.0.1/mcp' },
      { headers: { 'X-Key': '${K}' } },
    ];
    for (const changed of changes) {
      expect(mcpTrustHash({ ...base, ...changed }), JSON.stringify(changed)).not.toBe(hash);
    }
  });
});

describe('checkStart', () => {
  it('lets config.yaml and inline servers start without an approval', () => {
    const { trust } = store();
    for (const source of ['config.yaml', 'agent reviewer']) {
      expect(checkStart({ ...base, source }, { variables: {}, trust })).toEqual({ allowed: true });
    }
  });

  it('holds a .mcp.json server until its hash is approved, and again once it changed', async () => {
    const { trust } = store();
    const context = { variables: {}, trust };
    expect(checkStart(base, context)).toMatchObject({ status: 'untrusted', reason: 'new' });
    await trust.approve('files', mcpTrustHash(base), 'cli:alice');
    expect(checkStart(base, context)).toEqual({ allowed: true });
    expect(checkStart({ ...base, args: ['--root', '/'] }, context)).toMatchObject({
      status: 'untrusted',
      reason: 'changed',
    });
    await trust.revoke('files');
    expect(checkStart(base, context)).toMatchObject({ status: 'untrusted', reason: 'new' });
  });

  it('refuses a reference, in any field, to a variable config.yaml does not allow the server', async () => {
    const { trust } = store();
    const fields: Array<Partial<McpServerSpec>> = [
      { env: { TOKEN: '${GITHUB_TOKEN}' } },
      { args: ['--token=${GITHUB_TOKEN}'] },
      { command: '${GITHUB_TOKEN}' },
      { transport: 'http', endpoint: 'https://x.example/${GITHUB_TOKEN}' },
      {
        transport: 'http',
        endpoint: 'https://x.example/',
        headers: { A: 'Bearer ${GITHUB_TOKEN}' },
      },
      { env: { TOKEN: '${GITHUB_TOKEN:-fallback}' } },
    ];
    for (const field of fields) {
      const spec = { ...base, ...field };
      await trust.approve('files', mcpTrustHash(spec), null);
      const refused = checkStart(spec, { variables: { other: ['GITHUB_TOKEN'] }, trust });
      expect(refused, JSON.stringify(field)).toMatchObject({ status: 'refused' });
      expect(refused.allowed ? '' : refused.problem).toContain(
        "MCP server 'files' (.mcp.json) references ${GITHUB_TOKEN}, which config.yaml does not allow for it (mcpJson.variables.files)",
      );
      expect(checkStart(spec, { variables: { files: ['GITHUB_TOKEN'] }, trust })).toEqual({
        allowed: true,
      });
    }
    const odd = { ...base, env: { X: '${not a name}' } };
    await trust.approve('files', mcpTrustHash(odd), null);
    expect(checkStart(odd, { variables: { files: ['X'] }, trust })).toMatchObject({
      status: 'refused',
    });
  });
});

describe('the trust file', () => {
  it('approves nothing when deputy did not write it, and is not overwritten', async () => {
    const { dataDir, trust } = store();
    writeFileSync(
      join(dataDir, 'mcp-trust.json'),
      JSON.stringify({ workspaces: { '/ws': { files: { hash: mcpTrustHash(base) } } } }),
    );
    expect(trust.approval('files')).toBeUndefined();
    expect(trust.problem()).toMatch(/is not a trust file deputy wrote; it approves no MCP server/);
    await expect(trust.approve('files', mcpTrustHash(base), null)).rejects.toThrow(
      /not a trust file/,
    );
  });

  it('approves nothing with an entry deputy did not sign: hand-written, copied, or from an earlier deputy', async () => {
    const { dataDir, trust } = store();
    const context = { variables: {}, trust };
    const handWritten = {
      hash: mcpTrustHash(base),
      approvedAt: '2026-01-01T00:00:00.000Z',
      approvedBy: 'cli:alice',
    };
    const write = (entry: Record<string, unknown>) =>
      writeFileSync(
        join(dataDir, 'mcp-trust.json'),
        JSON.stringify({ v: 1, workspaces: { '/ws': { files: entry } } }),
      );
    // The shape deputy wrote before approvals were signed: it reads, and approves nothing.
    write(handWritten);
    expect(trust.approval('files')).toBeUndefined();
    expect(trust.unsigned('files')).toBe(true);
    expect(trust.problem()).toBeNull();
    const held = checkStart(base, context);
    expect(held).toMatchObject({ allowed: false, status: 'untrusted', reason: 'unsigned' });
    expect(held.allowed ? '' : held.problem).toBe(
      "MCP server 'files' from .mcp.json: its entry in the trust store (mcp-trust.json) is not signed by this deputy (written by hand, copied from another data directory, or recorded before approvals were signed), so it approves nothing; a person approves it with `deputy mcp trust files` or in the console",
    );

    // Approving again signs it; its mac holds only for this data directory's key.
    await trust.approve('files', mcpTrustHash(base), 'cli:alice');
    expect(checkStart(base, context)).toEqual({ allowed: true });
    expect(trust.unsigned('files')).toBe(false);
    expect(statSync(join(dataDir, 'mcp-trust.key')).mode & 0o777).toBe(0o600);
    const signed = (
      JSON.parse(readFileSync(join(dataDir, 'mcp-trust.json'), 'utf8')) as {
        workspaces: Record<string, Record<string, { mac: string }>>;
      }
    ).workspaces['/ws']!.files!;
    expect(signed.mac).toMatch(/^[0-9a-f]{64}$/);

    // The signed entry, changed by hand (who approved it), or copied into another data
    // directory: unsigned there.
    write({ ...signed, approvedBy: 'cli:mallory' });
    expect(checkStart(base, context)).toMatchObject({ reason: 'unsigned' });
    const elsewhere = store();
    writeFileSync(
      join(elsewhere.dataDir, 'mcp-trust.json'),
      JSON.stringify({ v: 1, workspaces: { '/ws': { files: signed } } }),
    );
    await elsewhere.trust.approve('other', mcpTrustHash(base), null);
    expect(elsewhere.trust.approval('files')).toBeUndefined();
    expect(elsewhere.trust.unsigned('files')).toBe(true);
    // ... and copied to another workspace of the same data directory.
    writeFileSync(
      join(dataDir, 'mcp-trust.json'),
      JSON.stringify({ v: 1, workspaces: { '/other': { files: signed } } }),
    );
    const other = createMcpTrustStore({ dataDir, workspace: '/other' });
    expect(other.approval('files')).toBeUndefined();
    expect(other.unsigned('files')).toBe(true);
  });

  it('approves nothing when the key file is not one deputy wrote, and does not replace it', async () => {
    const { dataDir, trust } = store();
    await trust.approve('files', mcpTrustHash(base), null);
    writeFileSync(join(dataDir, 'mcp-trust.key'), 'not a key\n');
    expect(trust.approval('files')).toBeUndefined();
    expect(trust.problem()).toMatch(
      /mcp-trust\.key is not a key deputy wrote; no MCP approval verifies/,
    );
    await expect(trust.approve('files', mcpTrustHash(base), null)).rejects.toThrow(
      /not a key deputy wrote/,
    );
    expect(readFileSync(join(dataDir, 'mcp-trust.key'), 'utf8')).toBe('not a key\n');
  });

  it('keeps approvals per workspace, and sees another process write it', async () => {
    const { dataDir, trust } = store();
    const other = createMcpTrustStore({ dataDir, workspace: '/elsewhere' });
    const reader = createMcpTrustStore({ dataDir, workspace: '/ws' });
    expect(reader.approval('files')).toBeUndefined();
    await trust.approve('files', mcpTrustHash(base), 'cli:alice');
    expect(reader.approval('files')).toMatchObject({ approvedBy: 'cli:alice' });
    expect(other.approval('files')).toBeUndefined();
  });
});
