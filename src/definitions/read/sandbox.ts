/**
 * The tolerant reader of `sandbox`. A declaration that cannot be read leaves the sandbox on with
 * nothing more than the workspace: a typo must never take bounds away, only fail to add some.
 */
import {
  ENV_NAME_PATTERN,
  ENV_NAME_RULE,
  SANDBOX_KEYS,
  SANDBOX_LIMIT_KEYS,
  SANDBOX_SWITCHES,
  TILDE_RULE,
  type SandboxDeclaration,
  type SandboxSpec,
} from '../../config/sandbox-schema.js';
import type { SandboxLimits } from '../../shared/sandbox-contract.js';
import { invalid, isMapping, mustBe, report, type ReadContext } from './context.js';

const FAIL_CLOSED = 'the sandbox is on with the workspace only until this is fixed';

export function readSandbox(value: unknown, ctx: ReadContext): SandboxDeclaration {
  if (typeof value === 'string' && (SANDBOX_SWITCHES as readonly string[]).includes(value)) {
    return value as SandboxDeclaration;
  }
  if (!isMapping(value)) {
    mustBe(ctx, 'sandbox', 'off, on or a mapping {read, write, env, limits}', value, FAIL_CLOSED);
    return 'on';
  }
  const spec: SandboxSpec = {};
  for (const key of Object.keys(value)) {
    const path = `sandbox.${key}`;
    const entry = value[key];
    switch (key) {
      case 'read':
      case 'write': {
        const paths = readPaths(path, entry, ctx);
        if (paths !== undefined) spec[key] = paths;
        break;
      }
      case 'env': {
        const names = readEnvNames(path, entry, ctx);
        if (names !== undefined) spec.env = names;
        break;
      }
      case 'limits': {
        const limits = readLimits(path, entry, ctx);
        if (limits !== undefined) spec.limits = limits;
        break;
      }
      default:
        unknownKey(ctx, path, key, SANDBOX_KEYS);
    }
  }
  return spec;
}

function unknownKey(ctx: ReadContext, path: string, key: string, known: readonly string[]): void {
  report(
    ctx,
    'warning',
    path,
    'field.unknown',
    `unknown key '${key}' of ${path.slice(0, path.lastIndexOf('.'))} is ignored; it takes ${known.join(', ')}`,
  );
}

function readList(path: string, value: unknown, ctx: ReadContext): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  mustBe(ctx, path, 'a list', value, 'nothing is added');
  return undefined;
}

function readPaths(path: string, value: unknown, ctx: ReadContext): string[] | undefined {
  const items = readList(path, value, ctx);
  if (items === undefined) return undefined;
  const paths: string[] = [];
  items.forEach((item, index) => {
    const at = `${path}[${index}]`;
    if (typeof item !== 'string' || item.trim() === '') {
      mustBe(ctx, at, 'a non-empty path', item, 'ignored');
    } else if (item.trim().startsWith('~')) {
      invalid(ctx, at, `${at} '${item}': ${TILDE_RULE}; ignored`);
    } else {
      paths.push(item.trim());
    }
  });
  return paths;
}

function readEnvNames(path: string, value: unknown, ctx: ReadContext): string[] | undefined {
  const items = readList(path, value, ctx);
  if (items === undefined) return undefined;
  const names: string[] = [];
  items.forEach((item, index) => {
    const at = `${path}[${index}]`;
    if (typeof item === 'string' && ENV_NAME_PATTERN.test(item)) names.push(item);
    else invalid(ctx, at, `${at} ${ENV_NAME_RULE}, got ${JSON.stringify(item)}; ignored`);
  });
  return names;
}

function readLimits(path: string, value: unknown, ctx: ReadContext): SandboxLimits | undefined {
  if (!isMapping(value)) {
    mustBe(ctx, path, 'a mapping {cpuSeconds, memoryMiB, processes}', value, 'the defaults apply');
    return undefined;
  }
  const limits: SandboxLimits = {};
  for (const key of Object.keys(value)) {
    const at = `${path}.${key}`;
    const ceiling = value[key];
    if (!(SANDBOX_LIMIT_KEYS as readonly string[]).includes(key)) {
      unknownKey(ctx, at, key, SANDBOX_LIMIT_KEYS);
    } else if (typeof ceiling === 'number' && Number.isSafeInteger(ceiling) && ceiling > 0) {
      limits[key as keyof SandboxLimits] = ceiling;
    } else {
      mustBe(ctx, at, 'a positive integer', ceiling, 'the default applies');
    }
  }
  return limits;
}
