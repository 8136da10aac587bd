/**
 * What every field reader shares: the context it reports into and the wording of its
 * diagnostics, so a wrong value reads the same whichever field it is in.
 */
import type { z } from 'zod';
import type { DefinitionLevel } from '../../shared/capability-snapshot.js';
import type { Diagnostic, DiagnosticSeverity } from '../../shared/diagnostics.js';
import { formatPath } from './issue-path.js';

export interface ReadContext {
  level: DefinitionLevel;
  aliases: Record<string, string>;
  /**
   * The built-in handle of a Claude Code model name (`sonnet`, `claude-opus-4-6`) when an
   * Anthropic key is configured (src/models/builtin-models.ts); undefined: none.
   */
  builtinModel?: (name: string) => string | undefined;
  diagnostics: Diagnostic[];
}

export type Values = Record<string, unknown>;

export function report(
  ctx: ReadContext,
  severity: DiagnosticSeverity,
  path: string,
  code: string,
  message: string,
): void {
  ctx.diagnostics.push({ severity, path, code, message });
}

export function invalid(ctx: ReadContext, path: string, message: string): void {
  report(ctx, 'error', path, 'field.invalid', message);
}

/** Reports `<path> must be <expected>, got <what it got>; <consequence>`. */
export function mustBe(
  ctx: ReadContext,
  path: string,
  expected: string,
  value: unknown,
  consequence: string,
): void {
  invalid(ctx, path, `${path} must be ${expected}, got ${describeType(value)}; ${consequence}`);
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 40) ?? ''}`.trim();
}

export function isMapping(value: unknown): value is Values {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The parsed value, or undefined after one diagnostic per schema issue (`<what> ignored: ...`). */
export function parseOrReport<T>(
  ctx: ReadContext,
  basePath: string,
  schema: z.ZodType<T>,
  value: unknown,
  what: string,
): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const path = formatPath([basePath, ...issue.path]).replace(/\.\[/g, '[');
    invalid(ctx, path, `${what} ignored: ${issue.message}`);
  }
  return undefined;
}
