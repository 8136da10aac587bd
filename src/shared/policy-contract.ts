/** Approval modes of SPEC POL-1, strictest first. */
export const APPROVAL_MODES = ['confirm', 'auto-in-workspace', 'auto-edit', 'full-access'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** What happens to `ask` when no human will answer (POL-3). */
export type UnattendedVerdict = 'ask' | 'deny';

export interface PolicyInput {
  approvalMode: ApprovalMode;
  /** Absolute, already resolved workspace root. */
  workspaceRoot: string;
  /** Absolute, already resolved roots where writes may be auto-approved. Defaults to the workspace. */
  writableRoots: string[];
  unattended: UnattendedVerdict;
}

export type Verdict =
  { kind: 'allow' } | { kind: 'ask'; reason: string } | { kind: 'deny'; reason: string };
