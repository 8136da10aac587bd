/**
 * Request parsing: a body that is not JSON is a 400; one that does not fit the schema is a 422
 * DeputyError with field-level issues, coded `invalid_config` for definitions.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { DeputyError } from '../../errors.js';
import { invalidRequest } from './errors.js';

export async function parseBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  code: 'invalid_request' | 'invalid_config' = 'invalid_request',
): Promise<z.infer<Schema>> {
  let body: unknown;
  let prototypeKey = false;
  try {
    const text = await c.req.text();
    // zod skips a `__proto__` key when it copies a record (assigning it would set a prototype):
    // the entry would vanish from an agent's servers or env without a word. Refuse it instead.
    body =
      text.trim() === ''
        ? {}
        : JSON.parse(text, (key, value: unknown) => {
            if (key === '__proto__') prototypeKey = true;
            return value;
          });
  } catch {
    throw new DeputyError('malformed', 'the request body is not valid JSON');
  }
  if (prototypeKey) {
    throw new DeputyError('invalid', "the key '__proto__' cannot be used in a request body", {
      code,
      issues: [{ path: '', message: "the key '__proto__' cannot be used in a request body" }],
    });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, 'body', code);
  return parsed.data;
}

export function parseQuery<Schema extends z.ZodType>(c: Context, schema: Schema): z.infer<Schema> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw invalidRequest(parsed.error, 'query');
  return parsed.data;
}
