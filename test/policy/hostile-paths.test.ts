/**
 * The hostile-paths table (hostile-paths.table.ts) on a real file system: each row's path is
 * resolved as the worker resolves a model's call (pathsOfCalls: symlinks, then identity) and
 * decided by decide() as the workflow decides it, in every approval mode. A trusted location
 * reached under any name must ask for a write outside full-access (and under bypassPermissions)
 * and be refused for a read when it is hidden.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deputyRoots } from '../../src/paths/deputy-roots.js';
import { derivedTrustedLocations } from '../../src/paths/derived-trusted-files.js';
import { decide } from '../../src/policy/decide.js';
import type { PolicyInput, Verdict } from '../../src/shared/policy-contract.js';
import { FILE_SYSTEM_TOOL_SCHEMAS } from '../../src/shared/tools/workspace-tool-schemas.js';
import { pathsOfCalls } from '../../src/tools/call-paths.js';
import { NAMED, PLUGIN_DIR, ROWS, TREE, type HostileRow } from './hostile-paths.table.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deputy-hostile-')));
const ws = path.join(base, 'ws');
for (const folder of TREE.folders) fs.mkdirSync(path.join(base, folder), { recursive: true });
for (const [file, content] of Object.entries(TREE.files)) {
  fs.writeFileSync(path.join(base, file), content);
}
for (const [link, target] of TREE.symlinks) fs.symlinkSync(target, path.join(base, link));
for (const [link, target] of TREE.hardlinks) {
  fs.linkSync(path.join(base, target), path.join(base, link));
}

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const roots = deputyRoots(
  {
    workspace: ws,
    dataDir: path.join(ws, '.deputy'),
    userDir: path.join(base, 'user'),
    projectRoot: path.join(ws, 'node_modules', 'deputy'),
    skills: { pluginDirs: [PLUGIN_DIR] },
  },
  {
    homeDir: path.join(base, 'home'),
    env: { DEPUTY_TOOLS_DIR: path.join(base, 'tools') },
    derived: derivedTrustedLocations(ws, {
      ...NAMED,
      modelScripts: NAMED.modelScripts.map((script) => path.join(ws, script)),
    }),
  },
);

/** Every mode, and full-access as bypassPermissions maps it. */
const MODES: Array<{ name: string; policy: Partial<PolicyInput> }> = [
  { name: 'confirm', policy: { approvalMode: 'confirm' } },
  { name: 'auto-in-workspace', policy: { approvalMode: 'auto-in-workspace' } },
  { name: 'auto-edit', policy: { approvalMode: 'auto-edit' } },
  { name: 'full-access', policy: { approvalMode: 'full-access' } },
  {
    name: 'bypassPermissions',
    policy: { approvalMode: 'full-access', protectInFullAccess: true },
  },
];

function verdictOf(row: HostileRow, mode: Partial<PolicyInput>): Verdict {
  const schema = FILE_SYSTEM_TOOL_SCHEMAS.find((candidate) => candidate.name === row.tool)!;
  const args = { path: row.path.replace('{base}', base) };
  const call = { id: 'c1', name: row.tool, arguments: args };
  const turn = pathsOfCalls(ws, [schema], [call], () => roots);
  return decide(
    {
      approvalMode: 'confirm',
      workspaceRoot: ws,
      writableRoots: [ws],
      unattended: 'ask',
      ...roots,
      ...mode,
    },
    {
      toolName: row.tool,
      toolClass: schema.toolClass,
      paths: turn.callPaths.c1 ?? [],
      linkedPaths: turn.linkedPaths.c1 ?? [],
    },
  );
}

const GUARDED = /protected paths need approval|hard links\) that cannot all be checked/;

/** What `row` must get in `mode`. */
function expected(row: HostileRow, mode: string): 'allow' | 'guarded-ask' | 'plain-ask' | 'deny' {
  if (row.expect === 'hidden') return 'deny';
  if (row.tool === 'read') return 'allow';
  if (row.expect === 'ordinary') return mode === 'confirm' ? 'plain-ask' : 'allow';
  return mode === 'full-access' ? 'allow' : 'guarded-ask';
}

describe('hostile paths: every trusted location under every name, in every approval mode', () => {
  for (const row of ROWS) {
    for (const mode of MODES) {
      it(`${row.tool} ${row.what} (${row.path}) under ${mode.name}`, () => {
        const verdict = verdictOf(row, mode.policy);
        const want = expected(row, mode.name);
        switch (want) {
          case 'allow':
            expect(verdict).toEqual({ kind: 'allow' });
            break;
          case 'deny':
            expect(verdict.kind).toBe('deny');
            expect(verdict.kind === 'deny' && verdict.reason).toMatch(/not readable by agents/);
            break;
          case 'guarded-ask':
            expect(verdict.kind).toBe('ask');
            expect(verdict.kind === 'ask' && verdict.reason).toMatch(GUARDED);
            break;
          case 'plain-ask':
            expect(verdict.kind).toBe('ask');
            expect(verdict.kind === 'ask' && verdict.reason).not.toMatch(GUARDED);
            break;
        }
      });
    }
  }

  it('covers every trusted location deputyRoots names', () => {
    // Each protected root (as written) is reached by at least one row, so a location added to
    // the trusted list without a row here fails.
    const reached = new Set<string>();
    for (const row of ROWS) {
      const schema = FILE_SYSTEM_TOOL_SCHEMAS.find((candidate) => candidate.name === row.tool)!;
      const call = {
        id: 'c',
        name: row.tool,
        arguments: { path: row.path.replace('{base}', base) },
      };
      for (const p of pathsOfCalls(ws, [schema], [call], () => roots).callPaths.c ?? []) {
        for (const root of roots.protectedRoots) {
          if (p === root.path || p.startsWith(`${root.path}/`)) reached.add(root.path);
        }
      }
    }
    const runtimeEntries = ['src', 'bin', 'web/dist', 'package.json', 'node_modules'].map((entry) =>
      path.join(ws, 'node_modules', 'deputy', entry),
    );
    const missing = roots.protectedRoots
      .map((root) => root.path)
      .filter((root) => !reached.has(root) && !runtimeEntries.includes(root));
    expect(missing).toEqual([]);
  });
});
