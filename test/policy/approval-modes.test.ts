/**
 * The four approval modes, and the five Claude Code permission modes mapped onto them, on one
 * table of calls: a writable root narrower than the workspace is what tells
 * `auto-in-workspace` from `auto-edit`, so every pair of modes differs on some call.
 */
import { describe, expect, it } from 'vitest';
import { PERMISSION_MODE_EFFECTS } from '../../src/policy/permission-mode.js';
import { PERMISSION_MODES, type PermissionMode } from '../../src/definitions/schema.js';
import { decide, type PolicyCall } from '../../src/policy/decide.js';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  type PolicyInput,
  type ProtectedRoot,
  type Verdict,
} from '../../src/shared/policy-contract.js';

const WS = '/work/ws';
const DATA_DIR = `${WS}/.deputy`;
const PROTECTED_ROOTS: ProtectedRoot[] = [
  { kind: 'definitions', path: `${WS}/.subagents` },
  { kind: 'definitions', path: `${WS}/.claude` },
  { kind: 'git', path: `${WS}/.git` },
  { kind: 'data', path: DATA_DIR },
];
const HIDDEN_ROOTS = [`${WS}/.subagents/config.yaml`, DATA_DIR];
// Narrower than the workspace (only out/), plus one root outside it.
const WRITABLE_ROOTS = [`${WS}/out`, '/tmp/scratch'];

function base(approvalMode: ApprovalMode): PolicyInput {
  return {
    approvalMode,
    workspaceRoot: WS,
    writableRoots: WRITABLE_ROOTS,
    protectedRoots: PROTECTED_ROOTS,
    hiddenRoots: HIDDEN_ROOTS,
    unattended: 'ask',
  };
}

const read = (path: string): PolicyCall => ({ toolName: 'read', toolClass: 'read', paths: [path] });
const write = (path: string): PolicyCall => ({
  toolName: 'write',
  toolClass: 'write',
  paths: [path],
});
const edit = (path: string): PolicyCall => ({
  toolName: 'edit',
  toolClass: 'write',
  paths: [path],
});

type Kind = Verdict['kind'];
type Row = { name: string; call: PolicyCall; modes: Record<ApprovalMode, Kind> };
const row = (name: string, call: PolicyCall, kinds: [Kind, Kind, Kind, Kind]): Row => ({
  name,
  call,
  modes: {
    confirm: kinds[0],
    'auto-in-workspace': kinds[1],
    'auto-edit': kinds[2],
    'full-access': kinds[3],
  },
});

// confirm / auto-in-workspace / auto-edit / full-access
const CALLS: Row[] = [
  row('read in the workspace', read(`${WS}/src/a.ts`), ['allow', 'allow', 'allow', 'allow']),
  row('read outside everything', read('/etc/passwd'), ['ask', 'ask', 'ask', 'allow']),
  row('read in a writable root outside the workspace', read('/tmp/scratch/x'), [
    'ask',
    'allow',
    'allow',
    'allow',
  ]),
  row('write in a writable root', write(`${WS}/out/report.md`), ['ask', 'allow', 'allow', 'allow']),
  row('edit in the workspace, outside the writable roots', edit(`${WS}/src/a.ts`), [
    'ask',
    'ask',
    'allow',
    'allow',
  ]),
  row('write in a writable root outside the workspace', write('/tmp/scratch/x'), [
    'ask',
    'allow',
    'allow',
    'allow',
  ]),
  row('write outside everything', write('/etc/x'), ['ask', 'ask', 'ask', 'allow']),
  row('write into .git', write(`${WS}/.git/hooks/pre-commit`), ['ask', 'ask', 'ask', 'allow']),
  row('edit an agent definition', edit(`${WS}/.subagents/agents/a.md`), [
    'ask',
    'ask',
    'ask',
    'allow',
  ]),
  row('write into the data directory', write(`${DATA_DIR}/x`), ['ask', 'ask', 'ask', 'allow']),
  row('bash', { toolName: 'bash', toolClass: 'exec', paths: [] }, ['ask', 'ask', 'ask', 'allow']),
  row('MCP tool', { toolName: 'github/create_issue', toolClass: 'mcp', paths: [] }, [
    'ask',
    'ask',
    'ask',
    'allow',
  ]),
  row('read of the configuration file', read(`${WS}/.subagents/config.yaml`), [
    'deny',
    'deny',
    'deny',
    'deny',
  ]),
  row(
    'memory_write (confined)',
    { toolName: 'memory_write', toolClass: 'write', paths: [], confined: true },
    ['allow', 'allow', 'allow', 'allow'],
  ),
];

const PROTECTED = new Set([
  'write into .git',
  'edit an agent definition',
  'write into the data directory',
]);

describe('the four approval modes on one table of calls', () => {
  for (const mode of APPROVAL_MODES) {
    it.each(CALLS)(`${mode}: %s`, ({ call, modes }) => {
      expect(decide(base(mode), call).kind).toBe(modes[mode]);
    });
  }

  it('every pair of modes decides some call differently', () => {
    for (const a of APPROVAL_MODES) {
      for (const b of APPROVAL_MODES) {
        if (a === b) continue;
        const differ = CALLS.filter(
          ({ call }) => decide(base(a), call).kind !== decide(base(b), call).kind,
        );
        expect(differ.length, `${a} vs ${b}`).toBeGreaterThan(0);
      }
    }
  });

  it('auto-in-workspace and auto-edit differ exactly on edits in the workspace outside the roots', () => {
    const differ = CALLS.filter(
      ({ call }) =>
        decide(base('auto-in-workspace'), call).kind !== decide(base('auto-edit'), call).kind,
    ).map((r) => r.name);
    expect(differ).toEqual(['edit in the workspace, outside the writable roots']);
  });
});

function mapped(mode: PermissionMode, extra: Partial<PolicyInput> = {}): PolicyInput {
  const effect = PERMISSION_MODE_EFFECTS[mode];
  return { ...base(effect.approvalMode), ...effect.flags, ...extra };
}

/** What each permission mode makes of a call that its approval mode would decide as `kind`. */
function expectedUnder(mode: PermissionMode, r: Row): Kind {
  const effect = PERMISSION_MODE_EFFECTS[mode];
  const kind = r.modes[effect.approvalMode];
  switch (mode) {
    case 'default':
    case 'acceptEdits':
      return kind;
    case 'dontAsk':
      return kind === 'ask' ? 'deny' : kind;
    case 'bypassPermissions':
      return PROTECTED.has(r.name) ? 'ask' : kind;
    case 'plan':
      return r.call.toolClass === 'write' || r.call.toolClass === 'exec' ? 'deny' : kind;
  }
}

describe('permissionMode mapped onto the policy', () => {
  it('maps each mode onto an approval mode', () => {
    expect(
      Object.fromEntries(PERMISSION_MODES.map((m) => [m, PERMISSION_MODE_EFFECTS[m].approvalMode])),
    ).toEqual({
      default: 'confirm',
      acceptEdits: 'auto-edit',
      dontAsk: 'confirm',
      bypassPermissions: 'full-access',
      plan: 'confirm',
    });
  });

  for (const mode of PERMISSION_MODES) {
    it.each(CALLS)(`${mode}: %s`, (r) => {
      expect(decide(mapped(mode), r.call).kind).toBe(expectedUnder(mode, r));
    });
  }

  it('acceptEdits: edits anywhere in the workspace run, bash asks', () => {
    expect(decide(mapped('acceptEdits'), edit(`${WS}/src/a.ts`))).toEqual({ kind: 'allow' });
    expect(
      decide(mapped('acceptEdits'), { toolName: 'bash', toolClass: 'exec', paths: [] }),
    ).toEqual({
      kind: 'ask',
      reason: "running commands with 'bash' needs approval under approvalMode auto-edit",
    });
  });

  it('protected paths keep asking under every mode that can ask, and are never allowed', () => {
    for (const mode of PERMISSION_MODES) {
      for (const r of CALLS.filter((c) => PROTECTED.has(c.name))) {
        const verdict = decide(mapped(mode), r.call);
        // dontAsk and plan deny instead: no one would answer, or nothing is written at all.
        expect(verdict.kind, `${mode}: ${r.name}`).toBe(
          mode === 'dontAsk' || mode === 'plan' ? 'deny' : 'ask',
        );
      }
    }
    expect(decide(mapped('bypassPermissions'), write(`${WS}/.git/config`))).toEqual({
      kind: 'ask',
      reason:
        "'write' changes the git repository (.git/config); protected paths need approval under approvalMode full-access (permissionMode bypassPermissions)",
    });
  });

  it('plan: a write, an edit, bash and even memory_write are denied saying the agent is in plan mode', () => {
    const calls: PolicyCall[] = [
      write(`${WS}/out/x`),
      edit(`${WS}/.git/config`),
      { toolName: 'bash', toolClass: 'exec', paths: [] },
      { toolName: 'memory_write', toolClass: 'write', paths: [], confined: true },
    ];
    for (const call of calls) {
      expect(decide(mapped('plan'), call)).toEqual({
        kind: 'deny',
        reason: `the agent is in plan mode (permissionMode plan): it is read-only, so '${call.toolName}' may not change files or run commands; read what you need and present the plan in your answer`,
      });
    }
    // Reads run as under confirm; MCP still asks (a human can judge what the tool does).
    expect(decide(mapped('plan'), read(`${WS}/src/a.ts`)).kind).toBe('allow');
    expect(
      decide(mapped('plan'), { toolName: 'github/create_issue', toolClass: 'mcp', paths: [] }).kind,
    ).toBe('ask');
  });

  it('dontAsk: what would ask is denied, telling the model no one will answer', () => {
    expect(decide(mapped('dontAsk'), write(`${WS}/src/a.ts`))).toEqual({
      kind: 'deny',
      reason:
        'write to src/a.ts needs approval under approvalMode confirm, but this agent runs with permissionMode dontAsk: no one will answer, so it is denied',
    });
    // Even in an attended run; and unattended says the same.
    expect(decide(mapped('dontAsk', { unattended: 'deny' }), write(`${WS}/src/a.ts`)).kind).toBe(
      'deny',
    );
  });

  it('a policy without flags (an old snapshot) decides as before', () => {
    for (const mode of APPROVAL_MODES) {
      for (const r of CALLS) {
        const flagsOff = {
          ...base(mode),
          readOnly: false,
          noHuman: false,
          protectInFullAccess: false,
        };
        expect(decide(flagsOff, r.call)).toEqual(decide(base(mode), r.call));
      }
    }
  });
});
