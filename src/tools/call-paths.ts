import path from 'node:path';
import type { ToolCallRequest } from '../shared/model-contract.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import type { DeputyRoots } from '../paths/deputy-roots.js';
import { linkCount, trustedAliasFinder } from '../paths/path-identity.js';
import { realpathLenient } from '../paths/realpath-lenient.js';

/**
 * The paths a tool call touches, as decide() must compare them: resolved, symlinks included, before
 * comparing with roots. Node side: it runs in an activity (or the API), and its result is what
 * enters the workflow.
 *
 * Deliberately never throws for a path outside the workspace: policy must see where the call
 * really points so it can ask or deny; the tool itself refuses such paths when it runs.
 * Arguments that are absent or not strings are skipped (the tool reports bad arguments).
 *
 * @param workspaceRoot absolute, already resolved workspace root.
 */
export function canonicalCallPaths(
  workspaceRoot: string,
  schema: ToolSchema,
  args: Record<string, unknown>,
): string[] {
  const paths: string[] = [];
  for (const name of schema.pathArguments ?? []) {
    const value = args[name];
    if (typeof value !== 'string') continue;
    // A null byte cannot name a real file; the tool refuses it. Resolve what precedes it so
    // policy still judges the location (realpath would throw on it).
    const usable = value.split('\0')[0] ?? '';
    const absolute = path.resolve(workspaceRoot, usable === '' ? '.' : usable);
    paths.push(resolveOrLexical(absolute));
  }
  return paths;
}

function resolveOrLexical(absolute: string): string {
  try {
    return realpathLenient(absolute);
  } catch {
    // ELOOP, EACCES...: the lexical path is the best policy can know; the tool will fail.
    return absolute;
  }
}

/** What policy needs to know of the paths of one model turn's calls, by call id. */
export interface TurnPaths {
  /**
   * Each call's real paths, followed by the trusted paths they are under another name (a hard
   * link, a case or Unicode variant, another route to a trusted folder: trustedAliasFinder), so
   * decide() asks or denies as it would for the trusted path itself.
   */
  callPaths: Record<string, string[]>;
  /** Each call's paths that are existing files with more than one hard link (absent: none). */
  linkedPaths: Record<string, string[]>;
}

/**
 * The real paths of every call of one model turn, for policy to compare with the roots. A call
 * naming a tool the agent does not have touches no path (it is refused anyway).
 *
 * @param roots the trusted roots as they are now (deputyRoots), for recognising them by identity;
 *   asked only when some call names a path
 */
export function pathsOfCalls(
  workspaceRoot: string,
  tools: readonly ToolSchema[],
  calls: readonly ToolCallRequest[],
  roots: () => DeputyRoots,
): TurnPaths {
  const schemas = new Map(tools.map((tool) => [tool.name, tool]));
  const named = calls.map((call) => {
    const schema = schemas.get(call.name);
    return { call, paths: schema ? canonicalCallPaths(workspaceRoot, schema, call.arguments) : [] };
  });
  const callPaths: Record<string, string[]> = {};
  const linkedPaths: Record<string, string[]> = {};
  if (named.every(({ paths }) => paths.length === 0)) {
    for (const { call } of named) callPaths[call.id] = [];
    return { callPaths, linkedPaths };
  }
  const { protectedRoots, hiddenRoots } = roots();
  const aliasesOf = trustedAliasFinder({
    protectedRoots: protectedRoots.map((root) => root.path),
    hiddenRoots,
  });
  for (const { call, paths } of named) {
    callPaths[call.id] = [...new Set([...paths, ...paths.flatMap(aliasesOf)])];
    const linked = paths.filter((p) => linkCount(p) > 1);
    if (linked.length > 0) linkedPaths[call.id] = linked;
  }
  return { callPaths, linkedPaths };
}
