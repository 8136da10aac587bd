/**
 * One tolerant reader per frontmatter field. A reader either sets its field or leaves the default
 * and says why in a diagnostic; list readers keep the valid entries and report the others.
 * This module hands each key to its field group's reader (field-groups.ts), keeps the keys no
 * reader knows and makes the checks that need every field read.
 */
import type { AgentDefinition } from '../definition.js';
import { UNSUPPORTED_FIELDS, ecosystemNotes } from '../ecosystem.js';
import { report, type ReadContext, type Values } from './context.js';
import {
  readApprovalField,
  readCapabilityField,
  readIdentityField,
  readLimitField,
  type FieldGroupReader,
  type FieldsRead,
} from './field-groups.js';
import { resolveTurns } from './turns.js';
import { FRONTMATTER_FIELDS, toolsLackRead } from '../schema.js';

export { INVALID_TOOLS_SPEC } from './capabilities.js';
export type { ReadContext } from './context.js';

const KNOWN_KEYS = new Set<string>([...FRONTMATTER_FIELDS, 'maxToolRounds', 'runConfig']);
const KNOWN_BY_LOWER = new Map(
  [...KNOWN_KEYS].map((key) => [key.toLowerCase().replace(/[_-]/g, ''), key]),
);

const FIELD_GROUPS: readonly FieldGroupReader[] = [
  readIdentityField,
  readCapabilityField,
  readLimitField,
  readApprovalField,
];

export function readFields(values: Values, definition: AgentDefinition, ctx: ReadContext): void {
  const read: FieldsRead = { values, definition, ctx, turns: [] };
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (value === null || value === undefined) {
      if (!KNOWN_KEYS.has(key)) keepUnknown(key, value, definition, ctx);
      continue;
    }
    if (!FIELD_GROUPS.some((readGroup) => readGroup(key, value, read)))
      keepUnknown(key, value, definition, ctx);
  }
  if (values.description === undefined || values.description === null) {
    definition.description = definition.name;
    report(
      ctx,
      'info',
      'description',
      'description.missing',
      `no description: the name '${definition.name}' is shown instead`,
    );
  }
  resolveTurns(read.turns, definition, ctx);
  ecosystemNotes(values, ctx);
  if (definition.knowledge.length > 0 && toolsLackRead(definition.tools)) {
    report(
      ctx,
      'warning',
      'knowledge',
      'knowledge.without-read',
      'knowledge sources are declared but tools does not include read: the agent can search them but not open the files',
    );
  }
}

function keepUnknown(
  key: string,
  value: unknown,
  definition: AgentDefinition,
  ctx: ReadContext,
): void {
  definition.unknownKeys[key] = value;
  if (Object.hasOwn(UNSUPPORTED_FIELDS, key)) {
    report(
      ctx,
      'warning',
      key,
      'field.unsupported',
      `${UNSUPPORTED_FIELDS[key]}; kept in the file unchanged`,
    );
    return;
  }
  const suggestion = KNOWN_BY_LOWER.get(key.toLowerCase().replace(/[_-]/g, ''));
  report(
    ctx,
    'warning',
    key,
    'field.unknown',
    `unknown field '${key}' is ignored and kept in the file unchanged${suggestion === undefined ? '' : `; did you mean '${suggestion}'?`}`,
  );
}
