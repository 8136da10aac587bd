/**
 * The caller's ceiling: capPolicy on the full table, every agent policy by
 * every caller mode, judged by what decide() answers on a set of calls. The capped policy is
 * never more permissive than either side, and (for every policy an agent can have) it is
 * exactly as strict as the stricter side on each call, no stricter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capPolicy, type PolicyPair } from '../../src/policy/permission-ceiling.js';
import { PERMISSION_MODE_EFFECTS } from '../../src/policy/permission-mode.js';
import { decide, type PolicyCall } from '../../src/policy/decide.js';
import {
  APPROVAL_MODES,
  PERMISSION_MODES,
  type PermissionMode,
  type PolicyFlags,
  type PolicyInput,
  type UnattendedVerdict,
  type Verdict,
} from '../../src/shared/policy-contract.js';

const WS = '/work/ws';

function policyInput(pair: PolicyPair, unattended: UnattendedVerdict): PolicyInput {
  return {
    approvalMode: pair.approvalMode,
    ...pair.flags,
    workspaceRoot: WS,
    // Narrower than the workspace: tells auto-in-workspace from auto-edit.
    writableRoots: [`${WS}/out`],
    protectedRoots: [{ kind: 'definitions', path: `${WS}/.claude` }],
    hiddenRoots: [`${WS}/.deputy`],
    unattended,
  };
}

const call = (toolName: string, toolClass: PolicyCall['toolClass'], ...paths: string[]) => ({
  toolName,
  toolClass,
  paths,
});

/** Calls on which the modes and flags differ: reads, writes, bash, protected and linked writes. */
const CALLS: Record<string, PolicyCall> = {
  'read in workspace': call('read', 'read', `${WS}/src/a.ts`),
  'read outside': call('read', 'read', '/etc/hosts'),
  'read hidden': call('read', 'read', `${WS}/.deputy/config.yaml`),
  'write in writable root': call('write', 'write', `${WS}/out/a.txt`),
  'write in workspace': call('write', 'write', `${WS}/src/a.ts`),
  'write outside': call('write', 'write', '/tmp/a.txt'),
  'protected write': call('write', 'write', `${WS}/.claude/agents/x.md`),
  'linked write': { ...call('write', 'write', `${WS}/src/l.ts`), linkedPaths: [`${WS}/src/l.ts`] },
  bash: call('bash', 'exec'),
  'mcp call': call('mcp:fs:read', 'mcp'),
  'config change': call('memory_forget', 'config'),
  'confined write': { ...call('memory_write', 'write', `${WS}/.mem/a.md`), confined: true },
};

const RANK: Record<Verdict['kind'], number> = { deny: 0, ask: 1, allow: 2 };
const rank = (pair: PolicyPair, c: PolicyCall, unattended: UnattendedVerdict) =>
  RANK[decide(policyInput(pair, unattended), c).kind];

const effect = (mode: PermissionMode): PolicyPair => PERMISSION_MODE_EFFECTS[mode];

/** Every policy an agent can run with: a plain approvalMode, or a permissionMode's effect. */
const AGENT_POLICIES: Record<string, PolicyPair> = {
  ...Object.fromEntries(
    APPROVAL_MODES.map((mode) => [`approvalMode ${mode}`, { approvalMode: mode, flags: {} }]),
  ),
  ...Object.fromEntries(PERMISSION_MODES.map((mode) => [`permissionMode ${mode}`, effect(mode)])),
};

describe('capPolicy', () => {
  it('leaves the agent as it is when the caller states no mode', () => {
    for (const agent of Object.values(AGENT_POLICIES))
      expect(capPolicy(agent, undefined)).toBe(agent);
  });

  it('takes the stricter approval mode and every flag of either side (the table)', () => {
    const modes = (agent: PermissionMode) =>
      PERMISSION_MODES.map((caller) => {
        const { approvalMode, flags } = capPolicy(effect(agent), caller);
        return [approvalMode, ...Object.keys(flags)].join('+');
      });
    // Rows: the agent's permissionMode; columns: the caller's, in PERMISSION_MODES order
    // (default, acceptEdits, dontAsk, bypassPermissions, plan).
    expect(Object.fromEntries(PERMISSION_MODES.map((agent) => [agent, modes(agent)]))).toEqual({
      default: [
        'confirm',
        'confirm',
        'confirm+noHuman',
        'confirm+protectInFullAccess',
        'confirm+readOnly',
      ],
      acceptEdits: [
        'confirm',
        'auto-edit',
        'confirm+noHuman',
        'auto-edit+protectInFullAccess',
        'confirm+readOnly',
      ],
      dontAsk: [
        'confirm+noHuman',
        'confirm+noHuman',
        'confirm+noHuman',
        'confirm+noHuman+protectInFullAccess',
        'confirm+readOnly+noHuman',
      ],
      bypassPermissions: [
        'confirm+protectInFullAccess',
        'auto-edit+protectInFullAccess',
        'confirm+noHuman+protectInFullAccess',
        'full-access+protectInFullAccess',
        'confirm+readOnly+protectInFullAccess',
      ],
      plan: [
        'confirm+readOnly',
        'confirm+readOnly',
        'confirm+readOnly+noHuman',
        'confirm+readOnly+protectInFullAccess',
        'confirm+readOnly',
      ],
    });
  });

  it('is, on every call, exactly as strict as the stricter side: never wider, never narrower', () => {
    const wider: string[] = [];
    const narrower: string[] = [];
    for (const [agentName, agent] of Object.entries(AGENT_POLICIES)) {
      for (const callerMode of PERMISSION_MODES) {
        const capped = capPolicy(agent, callerMode);
        for (const [callName, c] of Object.entries(CALLS)) {
          for (const unattended of ['ask', 'deny'] as const) {
            const got = rank(capped, c, unattended);
            const bound = Math.min(
              rank(agent, c, unattended),
              rank(effect(callerMode), c, unattended),
            );
            const where = `${agentName} x caller ${callerMode}, ${callName}, unattended ${unattended}`;
            if (got > bound) wider.push(where);
            if (got < bound) narrower.push(where);
          }
        }
      }
    }
    expect(wider).toEqual([]);
    expect(narrower).toEqual([]);
  });

  it('the examples in docs/policy.md: plan caps acceptEdits, bypassPermissions leaves it as it is', () => {
    const acceptEdits = effect('acceptEdits');
    const underPlan = policyInput(capPolicy(acceptEdits, 'plan'), 'ask');
    expect(decide(underPlan, CALLS['write in workspace']!)).toEqual({
      kind: 'deny',
      reason:
        "the agent is in plan mode (permissionMode plan): it is read-only, so 'write' may not change files or run commands; read what you need and present the plan in your answer",
    });
    const underBypass = policyInput(capPolicy(acceptEdits, 'bypassPermissions'), 'ask');
    expect(decide(underBypass, CALLS.bash!)).toEqual({
      kind: 'ask',
      reason: "running commands with 'bash' needs approval under approvalMode auto-edit",
    });
    expect(decide(underBypass, CALLS['write in workspace']!).kind).toBe('allow');
  });

  it('is never more permissive than either side, whatever the flags (property)', () => {
    const flags = fc.record(
      { readOnly: fc.boolean(), noHuman: fc.boolean(), protectInFullAccess: fc.boolean() },
      { requiredKeys: [] },
    ) as fc.Arbitrary<PolicyFlags>;
    const agent = fc.record({ approvalMode: fc.constantFrom(...APPROVAL_MODES), flags });
    fc.assert(
      fc.property(
        agent,
        fc.constantFrom(...PERMISSION_MODES),
        fc.constantFrom(...Object.values(CALLS)),
        fc.constantFrom<UnattendedVerdict>('ask', 'deny'),
        (own, callerMode, c, unattended) => {
          const capped = capPolicy(own, callerMode);
          const got = rank(capped, c, unattended);
          expect(got).toBeLessThanOrEqual(rank(own, c, unattended));
          expect(got).toBeLessThanOrEqual(rank(effect(callerMode), c, unattended));
          // A second cap by the same mode changes nothing: a child under the same caller.
          expect(capPolicy(capped, callerMode)).toEqual(capped);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses a mode that is not one of Claude Code’s', () => {
    expect(() => capPolicy(effect('default'), 'yolo' as PermissionMode)).toThrow(
      "unknown permission mode 'yolo'",
    );
  });
});
