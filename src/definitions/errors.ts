/** One error class for every authoring refusal; the API maps `kind` to an HTTP status (API-4). */
import type { ValidationIssue } from './schema.js';

export type DefinitionErrorKind = 'invalid' | 'read-only' | 'conflict' | 'not-found';

export const DEFINITION_ERROR_STATUS: Readonly<Record<DefinitionErrorKind, number>> = {
  invalid: 422,
  'read-only': 403,
  conflict: 409,
  'not-found': 404,
};

export class DefinitionError extends Error {
  override readonly name = 'DefinitionError';
  /** HTTP status the API answers with. */
  readonly status: number;

  constructor(
    readonly kind: DefinitionErrorKind,
    message: string,
    /** For `invalid`: every problem, as `{path, message}` (API-4 `issues`). */
    readonly issues: ValidationIssue[] = [],
  ) {
    super(message);
    this.status = DEFINITION_ERROR_STATUS[kind];
  }
}

export function invalidDefinition(
  issues: ValidationIssue[],
  message = 'the definition is invalid',
): DefinitionError {
  return new DefinitionError('invalid', message, issues);
}
