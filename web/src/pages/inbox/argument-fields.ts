/**
 * The fields of the edit-arguments form: one per argument, typed by the tool's JSON Schema when
 * the page has it (use-tool-schema.ts), else by the value the card shows (the schema could not be
 * read; the server checks every edit against the real schema and answers 422 either way). Values
 * are held as the text a field shows and turned back into JSON values on submit.
 */

export type JsonSchema = Record<string, unknown>;

export type FieldKind = 'text' | 'long-text' | 'number' | 'boolean' | 'json';

export interface ArgumentField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
}

/** Strings this long, or with a line break, get a text area. */
const LONG_TEXT = 60;

function kindOfSchema(property: JsonSchema, value: unknown): FieldKind {
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  if (type === 'string') return kindOfValue(typeof value === 'string' ? value : '');
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === undefined) return kindOfValue(value);
  return 'json';
}

function kindOfValue(value: unknown): FieldKind {
  if (typeof value === 'string')
    return value.includes('\n') || value.length > LONG_TEXT ? 'long-text' : 'text';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'json';
}

/** The schema's properties (then any argument it does not name), or the arguments' own keys. */
export function argumentFields(
  schema: JsonSchema | null,
  args: Record<string, unknown>,
): ArgumentField[] {
  const properties =
    schema !== null && typeof schema.properties === 'object' && schema.properties !== null
      ? (schema.properties as Record<string, JsonSchema>)
      : {};
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  const fields: ArgumentField[] = Object.entries(properties).map(([name, property]) => ({
    name,
    kind: kindOfSchema(property, args[name]),
    required: required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
  for (const [name, value] of Object.entries(args)) {
    if (!(name in properties)) fields.push({ name, kind: kindOfValue(value), required: false });
  }
  return fields;
}

/** The text a field starts with: the card's value. */
export function fieldText(field: ArgumentField, value: unknown): string {
  if (value === undefined) return field.kind === 'boolean' ? 'false' : '';
  if (field.kind === 'text' || field.kind === 'long-text')
    return typeof value === 'string' ? value : JSON.stringify(value);
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

/** The arguments the texts say, or the problem of each field that says nothing valid. */
export function argumentsOf(
  fields: ArgumentField[],
  texts: Record<string, string>,
): { arguments: Record<string, unknown> } | { problems: Record<string, string> } {
  const result: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const text = texts[field.name] ?? '';
    if (field.kind === 'boolean') {
      result[field.name] = text === 'true';
      continue;
    }
    // An empty optional field is left out; an empty required string is the person's to send.
    const textual = field.kind === 'text' || field.kind === 'long-text';
    if (text.trim() === '' && !(textual && field.required)) {
      if (field.required) problems[field.name] = 'required';
      continue;
    }
    if (field.kind === 'number') {
      const number = Number(text);
      if (Number.isFinite(number)) result[field.name] = number;
      else problems[field.name] = 'not a number';
    } else if (field.kind === 'json') {
      try {
        result[field.name] = JSON.parse(text) as unknown;
      } catch {
        problems[field.name] = 'not valid JSON';
      }
    } else {
      result[field.name] = text;
    }
  }
  return Object.keys(problems).length > 0 ? { problems } : { arguments: result };
}
