import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { isInside } from '../../src/shared/path-containment.js';
import type { PolicyCall } from '../../src/policy/decide.js';
import type { ApprovalMode, PolicyInput } from '../../src/shared/policy-contract.js';
import type { ToolClass } from '../../src/shared/tool-contract.js';

const WS = '/work/ws';
const INSIDE = '/work/ws/src/a.ts';
const OUTSIDE = '/etc/passwd';

function policy(approvalMode: ApprovalMode, extra: Partial<PolicyInput> = {}): PolicyInput {
  return { approvalMode, workspaceRoot: WS, writableRoots: [WS], unattended: 'ask', ...extra };
}

const TOOL_FOR_CLASS: Record<ToolClass, string> = {
  read: 'read',
  write: 'write',
  exec: 'bash',
  mcp: 'mcp__github__create_issue',
  config: 'save_agent',
};

type Where = 'inside' | 'outside' | 'none';
const PATHS: Record<Where, string[]> = { inside: [INSIDE], outside: [OUTSIDE], none: [] };

// POL-1 as a table: mode x class x where -> verdict kind. exec/mcp/config carry no paths.
const TABLE: Array<[ApprovalMode, ToolClass, Where, 'allow' | 'ask']> = [
  ['confirm', 'read', 'inside', 'allow'],
  ['confirm', 'read', 'none', 'allow'],
  ['confirm', 'read', 'outside', 'ask'],
  ['confirm', 'write', 'inside', 'ask'],
  ['confirm', 'write', 'none', 'ask'],
  ['confirm', 'write', 'outside', 'ask'],
  ['confirm', 'exec', 'none', 'ask'],
  ['confirm', 'mcp', 'none', 'ask'],
  ['confirm', 'config', 'none', 'ask'],

  ['auto-in-workspace', 'read', 'inside', 'allow'],
  ['auto-in-workspace', 'read', 'outside', 'ask'],
  ['auto-in-workspace', 'write', 'inside', 'allow'],
  ['auto-in-workspace', 'write', 'none', 'allow'],
  ['auto-in-workspace', 'write', 'outside', 'ask'],
  ['auto-in-workspace', 'exec', 'none', 'ask'],
  ['auto-in-workspace', 'mcp', 'none', 'ask'],
  ['auto-in-workspace', 'config', 'none', 'ask'],

  ['auto-edit', 'read', 'inside', 'allow'],
  ['auto-edit', 'read', 'outside', 'ask'],
  ['auto-edit', 'write', 'inside', 'allow'],
  ['auto-edit', 'write', 'outside', 'ask'],
  ['auto-edit', 'exec', 'none', 'ask'],
  ['auto-edit', 'mcp', 'none', 'ask'],
  ['auto-edit', 'config', 'none', 'ask'],

  ['full-access', 'read', 'inside', 'allow'],
  ['full-access', 'read', 'outside', 'allow'],
  ['full-access', 'write', 'inside', 'allow'],
  ['full-access', 'write', 'outside', 'allow'],
  ['full-access', 'exec', 'none', 'allow'],
  ['full-access', 'mcp', 'none', 'allow'],
  ['full-access', 'config', 'none', 'allow'],
];

describe('decide (POL-1)', () => {
  it.each(TABLE)('%s: %s %s -> %s', (mode, toolClass, where, expected) => {
    const call: PolicyCall = {
      toolName: TOOL_FOR_CLASS[toolClass],
      toolClass,
      paths: PATHS[where],
    };
    expect(decide(policy(mode), call).kind).toBe(expected);
  });

  it.each(TABLE)('unattended %s: %s %s -> ask becomes deny', (mode, toolClass, where, expected) => {
    const call: PolicyCall = {
      toolName: TOOL_FOR_CLASS[toolClass],
      toolClass,
      paths: PATHS[where],
    };
    const verdict = decide(policy(mode, { unattended: 'deny' }), call);
    expect(verdict.kind).toBe(expected === 'ask' ? 'deny' : 'allow');
  });

  it('gives a reason a reviewer can read', () => {
    expect(
      decide(policy('confirm'), { toolName: 'write', toolClass: 'write', paths: [INSIDE] }),
    ).toEqual({
      kind: 'ask',
      reason: 'write to src/a.ts needs approval under approvalMode confirm',
    });
    expect(
      decide(policy('auto-edit'), { toolName: 'edit', toolClass: 'write', paths: [OUTSIDE] }),
    ).toEqual({
      kind: 'ask',
      reason:
        "write to /etc/passwd (outside the workspace) by 'edit' needs approval under approvalMode auto-edit",
    });
    expect(
      decide(policy('confirm'), { toolName: 'grep', toolClass: 'read', paths: [INSIDE, OUTSIDE] }),
    ).toEqual({
      kind: 'ask',
      reason:
        "read of /etc/passwd (outside the workspace) by 'grep' needs approval under approvalMode confirm",
    });
    expect(decide(policy('auto-edit'), { toolName: 'bash', toolClass: 'exec', paths: [] })).toEqual(
      {
        kind: 'ask',
        reason: "running commands with 'bash' needs approval under approvalMode auto-edit",
      },
    );
  });

  it('says why an unattended call is denied', () => {
    expect(
      decide(policy('confirm', { unattended: 'deny' }), {
        toolName: 'bash',
        toolClass: 'exec',
        paths: [],
      }),
    ).toEqual({
      kind: 'deny',
      reason:
        "running commands with 'bash' needs approval under approvalMode confirm, but this run is unattended: no human will answer, so it is denied",
    });
  });

  it('never makes Task an approval item, whatever its class or the mode', () => {
    for (const mode of ['confirm', 'auto-in-workspace', 'auto-edit', 'full-access'] as const) {
      for (const unattended of ['ask', 'deny'] as const) {
        const verdict = decide(policy(mode, { unattended }), {
          toolName: 'Task',
          toolClass: 'exec',
          paths: [],
        });
        expect(verdict).toEqual({ kind: 'allow' });
      }
    }
  });

  it('lets a confined write (memory_write) run without a card; the same write unconfined asks', () => {
    const call = { toolName: 'memory_write', toolClass: 'write' as const, paths: [] };
    for (const mode of ['confirm', 'auto-in-workspace'] as const) {
      expect(decide(policy(mode), { ...call, confined: true })).toEqual({ kind: 'allow' });
    }
    expect(decide(policy('confirm'), call).kind).toBe('ask');
  });

  it('a read/write/edit/glob call needs all of its paths inside', () => {
    const call: PolicyCall = { toolName: 'write', toolClass: 'write', paths: [INSIDE, OUTSIDE] };
    expect(decide(policy('auto-edit'), call).kind).toBe('ask');
  });

  it('treats a sibling that shares the workspace prefix as outside', () => {
    const call: PolicyCall = { toolName: 'read', toolClass: 'read', paths: ['/work/ws-other/a'] };
    expect(decide(policy('confirm'), call).kind).toBe('ask');
    expect(decide(policy('confirm'), { ...call, paths: [WS] }).kind).toBe('allow');
  });

  describe('writable roots', () => {
    const narrow = policy('auto-in-workspace', { writableRoots: ['/work/ws/out', '/tmp/scratch'] });

    it('auto-in-workspace auto-approves writes in writable roots only, even outside the workspace', () => {
      const write = (p: string) =>
        decide(narrow, { toolName: 'write', toolClass: 'write', paths: [p] });
      expect(write('/work/ws/out/x').kind).toBe('allow');
      expect(write('/tmp/scratch/x').kind).toBe('allow');
      expect(write('/work/ws/src/a.ts')).toEqual({
        kind: 'ask',
        reason: 'write to src/a.ts needs approval under approvalMode auto-in-workspace',
      });
      // No path = the workspace itself, which is not a writable root here.
      expect(decide(narrow, { toolName: 'write', toolClass: 'write', paths: [] }).kind).toBe('ask');
    });

    it('auto-edit adds the whole workspace', () => {
      const wider = { ...narrow, approvalMode: 'auto-edit' as const };
      expect(
        decide(wider, { toolName: 'edit', toolClass: 'write', paths: ['/work/ws/src/a.ts'] }).kind,
      ).toBe('allow');
      expect(
        decide(wider, { toolName: 'edit', toolClass: 'write', paths: ['/tmp/scratch/a'] }).kind,
      ).toBe('allow');
      expect(
        decide(wider, { toolName: 'edit', toolClass: 'write', paths: ['/tmp/other'] }).kind,
      ).toBe('ask');
    });

    it('reads in a writable root are allowed once writes there are, but not under confirm', () => {
      const read: PolicyCall = { toolName: 'read', toolClass: 'read', paths: ['/tmp/scratch/x'] };
      expect(decide(narrow, read).kind).toBe('allow');
      expect(decide({ ...narrow, approvalMode: 'confirm' }, read).kind).toBe('ask');
    });

    it('empty writable roots default to the workspace', () => {
      const none = policy('auto-in-workspace', { writableRoots: [] });
      expect(decide(none, { toolName: 'write', toolClass: 'write', paths: [INSIDE] }).kind).toBe(
        'allow',
      );
      expect(decide(none, { toolName: 'write', toolClass: 'write', paths: ['/tmp/x'] }).kind).toBe(
        'ask',
      );
    });
  });

  it('isInside is plain POSIX containment', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
    expect(isInside('/a/b/', '/a/b/c')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/', '/anything')).toBe(true);
  });
});

describe('sandbox safety', () => {
  // decide() runs inside the Temporal workflow sandbox: a Node import would break the bundle.
  // Values from src/shared are fine (lint keeps src/shared free of Node modules): decide()
  // uses the shared path-containment rule.
  it.each(['src/policy/decide.ts', 'src/shared/redact.ts'])(
    '%s imports only from src/shared',
    async (file) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
      const imports = [...source.matchAll(/^import\s.*from\s+'([^']+)';$/gm)].map(
        (match) => match[0],
      );
      for (const line of imports) {
        expect(line).toMatch(/^import (type )?.* from '\.\.\/shared\/[a-z-]+\.js';$/);
      }
    },
  );
});
