/**
 * What permissions a delegation runs with, and who set them: read from its
 * capability snapshot for the `state` query, `deputy status` and the MCP door's results.
 * Sandbox-safe: the workflow builds it from the snapshot it recorded.
 */
import type { ApprovalMode, PermissionMode, PolicyFlags } from './policy-contract.js';

export interface PermissionInEffect {
  /** What decide() uses: the lower of the agent's own and the caller's mode. */
  approvalMode: ApprovalMode;
  /** The flags decide() honours with it; empty: none. */
  policyFlags: PolicyFlags;
  /** The permission mode the caller stated; null when it stated none. */
  callerMode: PermissionMode | null;
  /** What the agent runs with by itself (its definition), before the caller's ceiling. */
  agent: { approvalMode: ApprovalMode; policyFlags: PolicyFlags };
  /**
   * The caller's mode made the run stricter than the agent alone would have run: a stricter
   * approval mode, or a flag in force the agent lacks (not `protectInFullAccess` below
   * full-access, where it changes nothing).
   */
  capped: boolean;
}

/**
 * The capability snapshot's permission fields (CapabilitySnapshot, named here by shape: the
 * snapshot's module reaches this one through delegation.ts, so importing it back would be a cycle).
 */
export interface SnapshotPermission {
  approvalMode: ApprovalMode;
  policyFlags?: PolicyFlags;
  callerMode?: PermissionMode;
  agentPolicy?: { approvalMode: ApprovalMode; policyFlags?: PolicyFlags };
}

/** The snapshot's permissions as a run reports them. */
export function permissionInEffect(snapshot: SnapshotPermission): PermissionInEffect {
  const policyFlags = snapshot.policyFlags ?? {};
  const own = snapshot.agentPolicy;
  const agent =
    own === undefined
      ? { approvalMode: snapshot.approvalMode, policyFlags }
      : { approvalMode: own.approvalMode, policyFlags: own.policyFlags ?? {} };
  return {
    approvalMode: snapshot.approvalMode,
    policyFlags,
    callerMode: snapshot.callerMode ?? null,
    agent,
    capped:
      agent.approvalMode !== snapshot.approvalMode ||
      flagsInForce(agent.approvalMode, agent.policyFlags).join() !==
        flagsInForce(snapshot.approvalMode, policyFlags).join(),
  };
}

/**
 * One line saying what ran and why, for a person or a calling agent: `approvalMode confirm,
 * read-only (plan): capped by the caller's permission mode plan (the agent's own: approvalMode
 * auto-edit)`.
 */
export function describePermission(permission: PermissionInEffect): string {
  const running = policyText(permission.approvalMode, permission.policyFlags);
  if (permission.callerMode === null) return running;
  if (!permission.capped) {
    return `${running}: the agent's own, within the caller's permission mode ${permission.callerMode}`;
  }
  const own = policyText(permission.agent.approvalMode, permission.agent.policyFlags);
  return `${running}: capped by the caller's permission mode ${permission.callerMode} (the agent's own: ${own})`;
}

const FLAG_TEXT: Record<keyof Required<PolicyFlags>, string> = {
  readOnly: 'read-only (plan)',
  noHuman: 'no one answers cards (dontAsk)',
  protectInFullAccess: 'protected writes still ask',
};

/** The flags that change a decision under `approvalMode`, in a fixed order. */
function flagsInForce(approvalMode: ApprovalMode, flags: PolicyFlags): (keyof PolicyFlags)[] {
  return (Object.keys(FLAG_TEXT) as (keyof PolicyFlags)[]).filter(
    (flag) =>
      flags[flag] === true &&
      // Below full-access protected writes ask anyway: the flag changes nothing there.
      (flag !== 'protectInFullAccess' || approvalMode === 'full-access'),
  );
}

function policyText(approvalMode: ApprovalMode, flags: PolicyFlags): string {
  const said = flagsInForce(approvalMode, flags).map((flag) => FLAG_TEXT[flag]);
  return [`approvalMode ${approvalMode}`, ...said].join(', ');
}
