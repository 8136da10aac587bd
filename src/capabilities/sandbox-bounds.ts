/**
 * The sandbox a delegation's processes run in: the definition's `sandbox`, else the workspace's,
 * else none, resolved to absolute paths. A path inside deputy's data directory or configuration
 * is left out with a diagnostic: no declaration can show an agent what deputy keeps from it.
 */
import path from 'node:path';
import type { CapabilitySnapshot } from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { isHiddenPath } from '../shared/policy-contract.js';
import type { SandboxBounds } from '../shared/sandbox-contract.js';
import type { SandboxDeclaration } from '../config/sandbox-schema.js';

export interface SandboxInput {
  /** The definition's own declaration; absent: it declares none. */
  declared: SandboxDeclaration | undefined;
  /** The workspace's default (`sandbox` in config.yaml); absent: off. */
  workspaceDefault: SandboxDeclaration | undefined;
  /** Real absolute workspace root. */
  workspace: string;
  /** Places no agent may read, resolved (deputyRoots(...).hiddenRoots). */
  hiddenRoots: readonly string[];
  /** Where a path really is (symlinks followed); throws when it cannot be resolved. */
  realpath: (absolute: string) => string;
}

export function sandboxOf(
  input: SandboxInput,
  diagnostics: Diagnostic[],
): Pick<CapabilitySnapshot, 'sandbox'> {
  const fromDefinition = input.declared !== undefined;
  const declaration = input.declared ?? input.workspaceDefault ?? 'off';
  if (declaration === 'off') return {};
  const spec = declaration === 'on' ? {} : declaration;
  const origin = fromDefinition ? '' : " (the workspace's default sandbox)";
  const readWrite = [input.workspace];
  const readOnly: string[] = [];
  const keep = (list: string[], key: 'read' | 'write') =>
    (spec[key] ?? []).forEach((written, index) => {
      const at = `sandbox.${key}[${index}]`;
      const resolved = resolvePath(input, at, origin, written, diagnostics);
      if (resolved !== undefined && !readWrite.includes(resolved) && !list.includes(resolved)) {
        list.push(resolved);
      }
    });
  keep(readWrite, 'write');
  keep(readOnly, 'read');
  const bounds: SandboxBounds = {
    readOnly: readOnly.filter((p) => !readWrite.includes(p)),
    readWrite,
    env: [...new Set(spec.env ?? [])],
    limits: { ...spec.limits },
  };
  return { sandbox: bounds };
}

function resolvePath(
  input: SandboxInput,
  at: string,
  origin: string,
  written: string,
  diagnostics: Diagnostic[],
): string | undefined {
  const lexical = path.resolve(input.workspace, written);
  let real: string;
  try {
    real = input.realpath(lexical);
  } catch (error) {
    diagnostics.push({
      severity: 'error',
      path: at,
      code: 'sandbox.unresolvable',
      message: `${at}${origin} '${written}' cannot be resolved (${(error as Error).message}); left out of the sandbox`,
    });
    return undefined;
  }
  if (isHiddenPath(input.hiddenRoots, lexical) || isHiddenPath(input.hiddenRoots, real)) {
    diagnostics.push({
      severity: 'error',
      path: at,
      code: 'sandbox.hidden-path',
      message: `${at}${origin} '${written}' is inside deputy's data directory or configuration, which no agent may see; left out of the sandbox`,
    });
    return undefined;
  }
  return real;
}
