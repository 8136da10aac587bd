/** Parsers of option values that several commands share: a bad value is a usage error. */
import { InvalidArgumentError } from 'commander';
import { callerModeProblem, type PermissionMode } from '../shared/policy-contract.js';

/** `--max-tokens`, `--from-round`: a whole number above zero. */
export function parsePositiveInteger(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(count) || count <= 0) {
    throw new InvalidArgumentError('expected a positive whole number');
  }
  return count;
}

/** `--caller-mode`: one of Claude Code's permission modes, or a usage error naming them. */
export function parseCallerMode(value: string): PermissionMode {
  const problem = callerModeProblem(value);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return value as PermissionMode;
}
