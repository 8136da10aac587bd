/** The OpenAPI path item of grant-routes.ts. */
import { z } from 'zod';
import { component, jsonResponse, pathParameter, type PathItems } from '../openapi/parts.js';
import { commonErrors, errorAnswer } from '../openapi/answers.js';
import { GrantSchema } from './grant-schemas.js';
import { delegationIdParameter } from './paths.js';

const GrantRevokedSchema = component('GrantRevoked', z.object({ grant: GrantSchema }));

const revoke = {
  delete: {
    summary: 'Revoke what a person allowed for the rest of a delegation',
    description:
      'Grant `n` (see `grants` in GET /delegations/{id}) covers nothing from the next call ' +
      'policy decides: such calls ask again. It stays listed with `revoked`. Answered by the ' +
      'delegation itself, so it needs a worker (503 without one). With auth: only the user ' +
      'who started the delegation or an `admin` (else 403).',
    parameters: [
      delegationIdParameter,
      pathParameter('n', z.string().regex(/^[1-9]\d{0,5}$/), 'Grant number'),
    ],
    responses: {
      '200': jsonResponse(GrantRevokedSchema, 'The grant, revoked'),
      '404': errorAnswer('Unknown delegation, or no such grant (or it was revoked already)'),
      '409': errorAnswer('The delegation has finished'),
      ...commonErrors,
    },
  },
};

export const grantPaths: PathItems = {
  '/delegations/{id}/grants/{n}': revoke,
  // A session's grants, those for the rest of the session among them (its id is a delegation id).
  '/sessions/{id}/grants/{n}': revoke,
};
