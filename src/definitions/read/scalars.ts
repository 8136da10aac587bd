/**
 * Readers of single-valued fields (text, enum, boolean, integer, model). Each returns the value
 * or undefined after a diagnostic, so the caller keeps the field's default.
 */
import { parseDuration } from '../../shared/duration.js';
import { isModelHandle } from '../ecosystem.js';
import { invalid, mustBe, report, type ReadContext } from './context.js';

const DEFAULT_USED = 'the default is used';

export function readText(path: string, value: unknown, ctx: ReadContext): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value;
  // YAML turns `color: 123` or `description: yes` into numbers and booleans; the author meant text.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  mustBe(ctx, path, 'a non-empty string', value, DEFAULT_USED);
  return undefined;
}

export function readEnum<T extends string>(
  path: string,
  value: unknown,
  allowed: readonly T[],
  ctx: ReadContext,
): T | undefined {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
    return value as T;
  mustBe(ctx, path, `one of ${allowed.join(', ')}`, value, DEFAULT_USED);
  return undefined;
}

export function readBoolean(path: string, value: unknown, ctx: ReadContext): boolean | undefined {
  if (typeof value === 'boolean') return value;
  mustBe(ctx, path, 'true or false', value, DEFAULT_USED);
  return undefined;
}

export function readInteger(path: string, value: unknown, ctx: ReadContext): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  mustBe(ctx, path, 'an integer', value, DEFAULT_USED);
  return undefined;
}

export function readPositiveInteger(
  path: string,
  value: unknown,
  ctx: ReadContext,
): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  mustBe(ctx, path, 'a positive integer', value, DEFAULT_USED);
  return undefined;
}

/** A duration as written (`90s`, `30m`, `1h30m`), kept as text; left out when it is not one. */
export function readDuration(path: string, value: unknown, ctx: ReadContext): string | undefined {
  if (typeof value !== 'string') {
    mustBe(ctx, path, 'a duration such as 90s, 30m or 2h', value, 'it is left out');
    return undefined;
  }
  const parsed = parseDuration(value);
  if (parsed.ok) return value.trim();
  invalid(ctx, path, `${path}: ${parsed.problem}; it is left out`);
  return undefined;
}

/**
 * A catalog handle (provider/model), or an alias: the operator's `models.aliases` first, then a
 * built-in Anthropic default when an Anthropic key is configured; anything else is 'default'.
 */
export function readModel(value: unknown, ctx: ReadContext): string {
  if (typeof value !== 'string' || value.trim() === '') {
    mustBe(ctx, 'model', 'a string', value, 'the default model is used');
    return 'default';
  }
  const model = value.trim();
  if (model === 'inherit') {
    report(
      ctx,
      'info',
      'model',
      'model.inherit',
      "model 'inherit' (Claude Code: the parent's model): started by a session's Task the agent runs on the session's model; started directly (deputy delegate, POST /delegations) it runs on models.default",
    );
    return 'default';
  }
  if (isModelHandle(model)) return model;
  if (Object.hasOwn(ctx.aliases, model)) {
    const handle = ctx.aliases[model]!;
    report(ctx, 'info', 'model', 'model.alias', `model alias '${model}' resolves to '${handle}'`);
    return handle;
  }
  const builtin = ctx.builtinModel?.(model);
  if (builtin !== undefined) {
    report(
      ctx,
      'info',
      'model',
      'model.alias-builtin',
      `model '${model}' runs on Anthropic's '${builtin}' (deputy's built-in default, since an Anthropic key is configured); map it in models.aliases to choose another`,
    );
    return builtin;
  }
  report(
    ctx,
    'warning',
    'model',
    'model.alias-unmapped',
    `model '${model}' is not a handle (provider/model) and the alias map (models.aliases) has no entry for it; the default model is used. To run it, set ANTHROPIC_API_KEY (sonnet, opus, haiku and claude-* ids then run on Anthropic's models) or map it, e.g. models.aliases: {${model}: openai/gpt-4o-mini} with that handle in models.catalog`,
  );
  return 'default';
}
