/**
 * A model's tool calls checked against the schemas it was given, before policy sees them. A call
 * that does not fit is answered with the reason instead of being run: no card is opened for a
 * call that cannot work, and a tool never runs with arguments its author did not plan for (an
 * extra `mode: append` on `write` would silently overwrite). The model reads the reason and can
 * call again. Only what a schema states plainly is checked (`type`, `required`, `properties`,
 * `additionalProperties: false`, `enum`, `minimum`); other keywords are left to the tool.
 */
import type { ToolCallRequest } from '../shared/model-contract.js';
import type { JsonSchema, ToolSchema } from '../shared/tools/tool-contract.js';

/** At most this many problems are named; the rest would only bury the first. */
const MAX_PROBLEMS = 5;

/**
 * Why each call does not fit its tool's schema, by call id. Calls of tools the agent was not
 * given are left out: the workflow already answers those with the list of its tools.
 */
export function schemaProblems(
  calls: readonly ToolCallRequest[],
  tools: readonly ToolSchema[],
): Record<string, string> {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const problems: Record<string, string> = {};
  for (const call of calls) {
    const tool = byName.get(call.name);
    if (tool === undefined) continue;
    const found = objectProblems(call.arguments, tool.inputSchema, '');
    if (found.length === 0) continue;
    const named = found.slice(0, MAX_PROBLEMS).join('; ');
    const more = found.length > MAX_PROBLEMS ? ` (and ${found.length - MAX_PROBLEMS} more)` : '';
    problems[call.id] =
      `its arguments do not fit its parameters: ${named}${more}. ` +
      `Call it again with ${parameterList(tool.inputSchema)}.`;
  }
  return problems;
}

/** `path (string, required), limit (integer)`: what the model should have sent. */
function parameterList(schema: JsonSchema): string {
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  const names = Object.keys(properties);
  if (names.length === 0) return 'a JSON object';
  const described = names.map((name) => {
    const type = typeNames(properties[name]!).join(' or ');
    const parts = [type, required.includes(name) ? 'required' : ''].filter(Boolean).join(', ');
    return parts === '' ? name : `${name} (${parts})`;
  });
  return `these parameters: ${described.join(', ')}`;
}

function objectProblems(value: Record<string, unknown>, schema: JsonSchema, at: string): string[] {
  const problems: string[] = [];
  const properties = propertiesOf(schema);
  for (const name of requiredOf(schema)) {
    if (value[name] === undefined) problems.push(`'${at}${name}' is missing`);
  }
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (property === undefined) {
      if (schema.additionalProperties === false) {
        problems.push(`'${at}${name}' is not one of its parameters`);
      }
      continue;
    }
    problems.push(...valueProblems(item, property, `${at}${name}`));
  }
  return problems;
}

function valueProblems(value: unknown, schema: JsonSchema, at: string): string[] {
  const types = typeNames(schema);
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    return [`'${at}' must be ${types.map(article).join(' or ')}, not ${describe(value)}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => allowed === value)) {
    const allowed = schema.enum.map((item) => JSON.stringify(item)).join(', ');
    return [`'${at}' must be one of ${allowed}, not ${JSON.stringify(value)}`];
  }
  if (typeof schema.minimum === 'number' && typeof value === 'number' && value < schema.minimum) {
    return [`'${at}' must be at least ${schema.minimum}, not ${value}`];
  }
  if (isPlainObject(value) && schema.properties !== undefined) {
    return objectProblems(value, schema, `${at}.`);
  }
  return [];
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      // A type this check does not know: the tool decides.
      return true;
  }
}

function typeNames(schema: JsonSchema): string[] {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return isPlainObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
}

function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((item): item is string => typeof item === 'string')
    : [];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`;
}

/** What the model sent, short: `the string "1"`, `a number`, `null`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'object') return 'an object';
  return `${article(typeof value)} (${String(value)})`;
}
