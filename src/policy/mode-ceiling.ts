/**
 * The caller's permission mode as the MCP door takes it: a call may state one, and
 * `deputy mcp serve --mode` may set one for everything it serves; the delegation gets the
 * stricter of the two, and runs at the stricter of that and its agent's own (capability
 * resolution applies that last step, so no door can skip it).
 */
import type { PermissionMode } from '../shared/policy-contract.js';

/**
 * Least to most strict, by what decide() lets run: plan (read-only) denies changes and still
 * asks for the rest; dontAsk denies everything that would ask, changes included, so it holds all
 * of plan's refusals and more (a serve ceiling of dontAsk is never loosened by a call's plan).
 */
const STRICTNESS: readonly PermissionMode[] = [
  'bypassPermissions',
  'acceptEdits',
  'default',
  'plan',
  'dontAsk',
];

export function stricterMode(
  a: PermissionMode | undefined,
  b: PermissionMode | undefined,
): PermissionMode | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return STRICTNESS.indexOf(a) >= STRICTNESS.indexOf(b) ? a : b;
}
