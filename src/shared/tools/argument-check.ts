/**
 * Checks a call's arguments against its tool's input schema (a person's edited
 * arguments). The JSON Schema subset deputy's tools and MCP tools use: `type`, `properties`,
 * `required`, `additionalProperties: false`, `enum`, `minimum`/`maximum`, `items`; anything else
 * in a schema is not checked here (the tool itself still refuses what it cannot take).
 * Sandbox-safe: the workflow checks an edit before it applies it.
 */
import type { JsonSchema } from './tool-contract.js';

/** Why `value` does not fit `schema`, or null when it does. */
export function argumentsProblem(schema: JsonSchema, value: unknown): string | null {
  return problemAt(schema as Record<string, unknown>, value, 'arguments');
}

function problemAt(schema: Record<string, unknown>, value: unknown, at: string): string | null {
  const type = schema.type;
  if (typeof type === 'string' && !hasType(value, type)) return `${at} must be ${article(type)}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => option === value)) {
    return `${at} must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      return `${at} must be at least ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      return `${at} must be at most ${schema.maximum}`;
  }
  if (Array.isArray(value) && isSchema(schema.items)) {
    for (const [index, item] of value.entries()) {
      const problem = problemAt(schema.items, item, `${at}[${index}]`);
      if (problem !== null) return problem;
    }
  }
  if (isPlainObject(value)) return objectProblem(schema, value, at);
  return null;
}

function objectProblem(
  schema: Record<string, unknown>,
  value: Record<string, unknown>,
  at: string,
): string | null {
  const properties = isSchema(schema.properties)
    ? (schema.properties as Record<string, unknown>)
    : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of required) {
    if (typeof name === 'string' && !Object.hasOwn(value, name)) return `${at}.${name} is required`;
  }
  for (const [name, item] of Object.entries(value)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (isSchema(property)) {
      const problem = problemAt(property, item, `${at}.${name}`);
      if (problem !== null) return problem;
    } else if (schema.additionalProperties === false) {
      return `${at}.${name} is not an argument of this tool`;
    }
  }
  return null;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isSchema(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
