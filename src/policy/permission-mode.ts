/**
 * Claude Code's `permissionMode` mapped onto deputy's policy: an approval mode plus
 * the policy flags decide() honours (src/shared/policy-contract.ts). One table, read by the
 * definition reader (its diagnostic says what the mode maps to) and by capability resolution
 * (which records the effect in the snapshot).
 */
import type { ApprovalMode, PermissionMode, PolicyFlags } from '../shared/policy-contract.js';

export interface PermissionModeEffect {
  approvalMode: ApprovalMode;
  flags: PolicyFlags;
  /** What the agent can do under it, for the diagnostic. */
  meaning: string;
}

export const PERMISSION_MODE_EFFECTS: Record<PermissionMode, PermissionModeEffect> = {
  default: {
    approvalMode: 'confirm',
    flags: {},
    meaning: 'reads inside the workspace run, everything else opens an approval card',
  },
  acceptEdits: {
    approvalMode: 'auto-edit',
    flags: {},
    meaning:
      'file edits anywhere in the workspace run without a card; bash, MCP and protected paths ask',
  },
  dontAsk: {
    approvalMode: 'confirm',
    flags: { noHuman: true },
    meaning:
      'reads inside the workspace run; every call that would ask is denied at once, telling the model no one will answer',
  },
  bypassPermissions: {
    approvalMode: 'full-access',
    flags: { protectInFullAccess: true },
    meaning:
      "every call of the tools the caller's roles allow runs without a card, except writes into protected paths, which still ask",
  },
  plan: {
    approvalMode: 'confirm',
    flags: { readOnly: true },
    meaning:
      'read-only: writes and bash are denied with a message saying the agent is in plan mode; reads run as under confirm',
  },
};

/**
 * The approval mode and flags a definition runs with. `approvalMode` wins when the file sets
 * both (the reader says so); `permissionModeApplies` is the reader's record of that.
 */
export function effectivePolicy(definition: {
  approvalMode: ApprovalMode;
  permissionMode: PermissionMode | null;
  permissionModeApplies?: boolean;
}): { approvalMode: ApprovalMode; flags: PolicyFlags } {
  if (definition.permissionMode === null || definition.permissionModeApplies !== true) {
    return { approvalMode: definition.approvalMode, flags: {} };
  }
  const effect = PERMISSION_MODE_EFFECTS[definition.permissionMode];
  return { approvalMode: effect.approvalMode, flags: effect.flags };
}
