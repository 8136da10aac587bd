import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { isInside } from '../../src/shared/path-containment.js';
import type { PolicyCall } from '../../src/policy/decide.js';
import type { ApprovalMode, PolicyInput, ProtectedRoot } from '../../src/shared/policy-contract.js';
import type { ToolClass } from '../../src/shared/tools/tool-contract.js';

const WS = '/work/ws';
const INSIDE = '/work/ws/src/a.ts';
const OUTSIDE = '/etc/passwd';
const USER_DIR = '/home/u/.config/deputy';
const DATA_DIR = '/work/ws/.deputy';

// As src/paths/deputy-roots.ts computes them for this workspace (already resolved).
const PROTECTED_ROOTS: ProtectedRoot[] = [
  { kind: 'definitions', path: `${WS}/.subagents` },
  { kind: 'definitions', path: `${WS}/.claude` },
  { kind: 'definitions', path: `${WS}/.qwen` },
  { kind: 'definitions', path: USER_DIR },
  { kind: 'git', path: `${WS}/.git` },
  { kind: 'data', path: DATA_DIR },
];
const HIDDEN_ROOTS = [`${WS}/.subagents/config.yaml`, DATA_DIR];

function policy(approvalMode: ApprovalMode, extra: Partial<PolicyInput> = {}): PolicyInput {
  return {
    approvalMode,
    workspaceRoot: WS,
    writableRoots: [WS],
    protectedRoots: PROTECTED_ROOTS,
    hiddenRoots: HIDDEN_ROOTS,
    unattended: 'ask',
    ...extra,
  };
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

// decide() as a table: mode x class x where -> verdict kind. exec/mcp/config carry no paths.
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

describe('decide', () => {
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

  describe('protected and hidden paths', () => {
    const MODES = ['confirm', 'auto-in-workspace', 'auto-edit', 'full-access'] as const;
    const TOOLS = [
      { toolName: 'write', toolClass: 'write' },
      { toolName: 'edit', toolClass: 'write' },
      { toolName: 'read', toolClass: 'read' },
      { toolName: 'glob', toolClass: 'read' },
    ] as const;
    // Each protected place as a call names it: plainly, through `..` (decide() gets resolved
    // paths, but must not be fooled by a lexical one either), and absolute outside the
    // workspace. `change` is what the card must say; `hidden` = no agent may read it.
    const PLACES = [
      { path: `${WS}/.subagents/agents/fixer.md`, change: 'agent definition', hidden: false },
      { path: `${WS}/src/../.subagents/agents/root.md`, change: 'agent definition', hidden: false },
      { path: `${WS}/.subagents/config.yaml`, change: 'agent definition', hidden: true },
      { path: `${WS}/src/../.subagents/./config.yaml`, change: 'agent definition', hidden: true },
      { path: `${WS}/.claude/agents/a.md`, change: 'agent definition', hidden: false },
      { path: `${WS}/.qwen/agents/a.md`, change: 'agent definition', hidden: false },
      { path: `${USER_DIR}/agents/a.md`, change: 'agent definition', hidden: false },
      { path: `${WS}/.git/hooks/pre-commit`, change: 'git repository', hidden: false },
      { path: `${WS}/a/b/../../.git/config`, change: 'git repository', hidden: false },
      { path: `${DATA_DIR}/memory/main/notes.md`, change: "deputy's data directory", hidden: true },
      { path: `${WS}/src/../.deputy/temporal.db`, change: "deputy's data directory", hidden: true },
    ];
    const ROWS = MODES.flatMap((mode) =>
      PLACES.flatMap((place) => TOOLS.map((tool) => [mode, tool.toolName, place.path] as const)),
    );

    it.each(ROWS)('%s: %s %s', (mode, toolName, path) => {
      const place = PLACES.find((candidate) => candidate.path === path)!;
      const tool = TOOLS.find((candidate) => candidate.toolName === toolName)!;
      const verdict = decide(policy(mode), { ...tool, paths: [path] });
      if (tool.toolClass === 'write') {
        // Writes ask in every mode but full-access, and the card says what they would change.
        if (mode === 'full-access') expect(verdict).toEqual({ kind: 'allow' });
        else {
          expect(verdict.kind).toBe('ask');
          expect(verdict.kind !== 'allow' && verdict.reason).toContain(place.change);
        }
      } else if (place.hidden) {
        // Hidden reads are refused outright, full-access included: no card could make them ok.
        expect(verdict.kind).toBe('deny');
        expect(verdict.kind !== 'allow' && verdict.reason).toContain(
          "deputy's configuration is not readable by agents",
        );
      } else if (isInside(WS, path) || mode === 'full-access') {
        // Reading a definition is fine: only changing one widens authority.
        expect(verdict).toEqual({ kind: 'allow' });
      } else {
        // The user level lies outside the workspace: an ordinary outside read.
        expect(verdict.kind).toBe('ask');
      }
    });

    it('words each card so a human sees what would change', () => {
      const write = (toolName: string, path: string, mode: ApprovalMode = 'auto-edit') =>
        decide(policy(mode), { toolName, toolClass: 'write', paths: [path] });
      expect(write('edit', `${WS}/.subagents/agents/fixer.md`)).toEqual({
        kind: 'ask',
        reason:
          "'edit' changes an agent definition or deputy configuration (.subagents/agents/fixer.md); protected paths need approval under approvalMode auto-edit",
      });
      expect(write('write', `${WS}/.git/hooks/pre-commit`, 'confirm')).toEqual({
        kind: 'ask',
        reason:
          "'write' changes the git repository (.git/hooks/pre-commit); protected paths need approval under approvalMode confirm",
      });
      expect(write('write', `${DATA_DIR}/memory/x.md`, 'auto-in-workspace')).toEqual({
        kind: 'ask',
        reason:
          "'write' changes deputy's data directory (.deputy/memory/x.md); protected paths need approval under approvalMode auto-in-workspace",
      });
      // Outside the workspace the path is shown whole.
      expect(write('write', `${USER_DIR}/agents/a.md`)).toMatchObject({
        reason: expect.stringContaining(`deputy configuration (${USER_DIR}/agents/a.md)`),
      });
    });

    it('unattended: a protected write is denied with the same reason', () => {
      const verdict = decide(policy('auto-edit', { unattended: 'deny' }), {
        toolName: 'write',
        toolClass: 'write',
        paths: [`${WS}/.git/hooks/pre-commit`],
      });
      expect(verdict).toEqual({
        kind: 'deny',
        reason:
          "'write' changes the git repository (.git/hooks/pre-commit); protected paths need approval under approvalMode auto-edit, but this run is unattended: no human will answer, so it is denied",
      });
    });

    it('a writable root cannot switch protection off', () => {
      const wide = policy('auto-in-workspace', {
        writableRoots: [WS, `${WS}/.subagents`, `${WS}/.git`, DATA_DIR],
      });
      for (const path of [`${WS}/.subagents/agents/a.md`, `${WS}/.git/x`, `${DATA_DIR}/x`]) {
        expect(decide(wide, { toolName: 'write', toolClass: 'write', paths: [path] }).kind).toBe(
          'ask',
        );
      }
    });

    it('one protected path among ordinary ones is enough to ask', () => {
      const verdict = decide(policy('auto-edit'), {
        toolName: 'write',
        toolClass: 'write',
        paths: [INSIDE, `${WS}/.qwen/agents/x.md`],
      });
      expect(verdict).toMatchObject({
        kind: 'ask',
        reason: expect.stringContaining('deputy configuration (.qwen/agents/x.md)'),
      });
    });

    it('the hidden-read refusal names the path and tells the model what to do', () => {
      const verdict = decide(policy('full-access'), {
        toolName: 'grep',
        toolClass: 'read',
        paths: [`${WS}/.subagents/config.yaml`],
      });
      expect(verdict).toEqual({
        kind: 'deny',
        reason:
          "deputy's configuration is not readable by agents: read of .subagents/config.yaml by 'grep' is refused in every approvalMode (its configuration file and data directory are off limits); go on without it",
      });
    });

    it('a read over a tree that merely contains a hidden root is allowed (the tools skip it)', () => {
      for (const mode of MODES) {
        for (const paths of [[WS], [], [`${WS}/.subagents`]]) {
          expect(decide(policy(mode), { toolName: 'grep', toolClass: 'read', paths }).kind).toBe(
            'allow',
          );
        }
      }
    });

    it('a similarly named sibling is neither protected nor hidden', () => {
      for (const path of [`${WS}/.subagents-old/a.md`, `${WS}/.gitignore`, `${WS}/.deputy2/x`]) {
        expect(
          decide(policy('auto-edit'), { toolName: 'write', toolClass: 'write', paths: [path] }),
        ).toEqual({ kind: 'allow' });
        expect(
          decide(policy('confirm'), { toolName: 'read', toolClass: 'read', paths: [path] }),
        ).toEqual({ kind: 'allow' });
      }
    });

    it('memory_write stays allowed although its directory is in the data directory', () => {
      for (const mode of MODES) {
        const verdict = decide(policy(mode, { unattended: 'deny' }), {
          toolName: 'memory_write',
          toolClass: 'write',
          paths: [],
          confined: true,
        });
        expect(verdict).toEqual({ kind: 'allow' });
      }
    });

    it('a policy resolved before protected paths existed (no roots) decides as it did', () => {
      const old = policy('auto-edit', { protectedRoots: undefined, hiddenRoots: undefined });
      expect(
        decide(old, { toolName: 'edit', toolClass: 'write', paths: [`${WS}/.git/config`] }),
      ).toEqual({ kind: 'allow' });
      expect(
        decide(old, { toolName: 'read', toolClass: 'read', paths: [`${DATA_DIR}/x`] }),
      ).toEqual({ kind: 'allow' });
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
  // uses the shared path-containment rule. A sibling in src/policy is fine when it is checked
  // here too: decide() matches grants with grants.ts, which reads tool patterns.
  it.each([
    'src/policy/decide.ts',
    'src/policy/grants.ts',
    'src/policy/tool-patterns.ts',
    'src/shared/redact.ts',
  ])('%s imports only from src/shared and checked src/policy siblings', async (file) => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
    const imports = [...source.matchAll(/^import\s.*from\s+'([^']+)';$/gm)].map(
      (match) => match[0],
    );
    for (const line of imports) {
      expect(line).toMatch(
        /^import (type )?.* from '(\.\.\/shared\/([a-z-]+\/)?[a-z-]+|\.\/(grants|tool-patterns))\.js';$/,
      );
    }
  });
});
