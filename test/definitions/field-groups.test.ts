import { describe, expect, it } from 'vitest';
import {
  readApprovalField,
  readCapabilityField,
  readIdentityField,
  readLimitField,
  type FieldsRead,
} from '../../src/definitions/read/field-groups.js';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import { FRONTMATTER_FIELDS } from '../../src/definitions/schema.js';

const GROUPS = { readIdentityField, readCapabilityField, readLimitField, readApprovalField };

function freshRead(): FieldsRead {
  const { definition } = parseDefinition('---\nname: helper\n---\n', {
    fileName: 'helper.md',
    level: 'project',
  });
  return {
    values: {},
    definition,
    ctx: { level: 'project', aliases: {}, diagnostics: [] },
    turns: [],
  };
}

describe('field groups (readFields tries each in turn)', () => {
  it('every known field is read by exactly one group', () => {
    for (const key of [...FRONTMATTER_FIELDS, 'maxToolRounds', 'runConfig']) {
      const takers = Object.entries(GROUPS)
        .filter(([, readGroup]) => readGroup(key, 'x', freshRead()))
        .map(([name]) => name);
      expect({ key, takers: takers.length }).toEqual({ key, takers: 1 });
    }
  });

  it('no group takes a key it does not know (readFields then keeps it as unknown)', () => {
    for (const readGroup of Object.values(GROUPS)) {
      const read = freshRead();
      expect(readGroup('maxturn', 5, read)).toBe(false);
      expect(read.ctx.diagnostics).toEqual([]);
    }
  });
});
