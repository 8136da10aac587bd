/**
 * `DELETE /delegations/:id/grants/:n`: revoke what a person allowed for the rest of a
 * delegation. Rights as for a stop: the user who started it or an admin.
 * `DELETE /sessions/:id/grants/:n`: the same for a session's grants (a session's id is its own
 * delegation id), among them those for the rest of the session, which its children then drop.
 */
import type { Hono } from 'hono';
import { DeputyError } from '../../errors.js';
import { assertMayStop } from '../../rights/rights.js';
import type { SecretMasker } from '../../secrets/masker.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import type { AppEnv } from '../http/app-env.js';
import { delegationIdParam } from '../http/path-ids.js';

export function registerGrantRoutes(
  app: Hono<AppEnv>,
  deps: { delegations: Delegations; secrets: SecretMasker },
): void {
  for (const path of ['/delegations/:id/grants/:n', '/sessions/:id/grants/:n']) {
    app.delete(path, async (c) => {
      const delegationId = delegationIdParam(c);
      const n = grantNumber(c.req.param('n'));
      await assertMayStop(deps.delegations, c.get('caller'), delegationId);
      const grant = await deps.delegations.revokeGrant(delegationId, n, c.get('caller').id);
      return c.json(deps.secrets.value({ grant }));
    });
  }
}

function grantNumber(value: string | undefined): number {
  if (value === undefined || !/^[1-9]\d{0,5}$/.test(value)) {
    throw new DeputyError(
      'invalid',
      `a grant number is a positive integer, not '${String(value).slice(0, 20)}'`,
    );
  }
  return Number(value);
}
