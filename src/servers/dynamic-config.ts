/**
 * Reads a Temporal dynamic config file (`key: [{ value, constraints }]`) into the flat
 * `key=value` pairs `temporal server start-dev --dynamic-config-value` takes. Only unconstrained
 * values apply everywhere; a file with constraints is refused rather than half applied.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type DynamicConfigValue = number | boolean | string;

export function readDynamicConfig(path: string): Record<string, DynamicConfigValue> {
  const parsed = (parse(readFileSync(path, 'utf8')) ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(parsed).map(([key, entries]) => {
      const [entry, ...more] = Array.isArray(entries) ? (entries as unknown[]) : [];
      const { value, constraints } = (entry ?? {}) as { value?: unknown; constraints?: object };
      const plain = ['number', 'boolean', 'string'].includes(typeof value);
      if (!plain || more.length > 0 || Object.keys(constraints ?? {}).length > 0) {
        throw new Error(
          `${path}: ${key} must have exactly one unconstrained number, boolean or string value for the dev server`,
        );
      }
      return [key, value as DynamicConfigValue];
    }),
  );
}
