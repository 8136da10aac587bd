/**
 * The caller's ceiling (docs/policy.md, "The caller's ceiling"): a caller may state its own Claude
 * Code permission mode, and the delegation then runs at the lower of the agent's policy and that
 * mode. Lower means stricter on every call: the stricter approval mode, and every restrictive flag
 * either side has. Pure; capability resolution records the result in the snapshot.
 */
import {
  APPROVAL_MODES,
  type ApprovalMode,
  type PermissionMode,
  type PolicyFlags,
} from '../shared/policy-contract.js';
import { PERMISSION_MODE_EFFECTS } from './permission-mode.js';

/** An approval mode and the flags decide() honours with it. */
export interface PolicyPair {
  approvalMode: ApprovalMode;
  flags: PolicyFlags;
}

/**
 * Every PolicyFlags key. Each one only takes away (plan denies changes, dontAsk denies what
 * would ask, bypassPermissions keeps protected writes asking), so having it on either side keeps
 * it on. Typed as a record of every key: a new flag fails to compile here until someone decides
 * whether it restricts, since a flag that widened must not be united like these.
 */
const RESTRICTIVE_FLAGS: Record<keyof Required<PolicyFlags>, true> = {
  readOnly: true,
  noHuman: true,
  protectInFullAccess: true,
};

/** The stricter of two approval modes, in APPROVAL_MODES' order (strictest first). */
export function stricterApprovalMode(a: ApprovalMode, b: ApprovalMode): ApprovalMode {
  return APPROVAL_MODES.indexOf(a) <= APPROVAL_MODES.indexOf(b) ? a : b;
}

/**
 * What a delegation runs with when its caller stated `callerMode`: never wider than the agent's
 * own policy nor than the caller's mode. Without a caller mode, the agent's policy as it is.
 * Flags come out in a fixed order and only when set, so equal inputs give equal snapshots.
 */
export function capPolicy(agent: PolicyPair, callerMode: PermissionMode | undefined): PolicyPair {
  if (callerMode === undefined) return agent;
  const caller = PERMISSION_MODE_EFFECTS[callerMode];
  if (caller === undefined) throw new RangeError(`unknown permission mode '${String(callerMode)}'`);
  const flags: PolicyFlags = {};
  for (const flag of Object.keys(RESTRICTIVE_FLAGS) as (keyof PolicyFlags)[]) {
    if (agent.flags[flag] === true || caller.flags[flag] === true) flags[flag] = true;
  }
  return {
    approvalMode: stricterApprovalMode(agent.approvalMode, caller.approvalMode),
    flags,
  };
}
