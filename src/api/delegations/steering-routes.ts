/**
 * Steering and reviving delegations: POST /delegations/:id/messages puts a message to
 * a running delegation (its model gets it at the next round boundary), POST
 * /delegations/:id/resume continues a finished one with a new message as a new delegation.
 */
import type { Hono } from 'hono';
import type { SecretMasker } from '../../secrets/masker.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import { assertMayStop } from '../../rights/rights.js';
import { messageRequest, resumeRequest } from '../../asks/follow-up-requests.js';
import type { AppEnv } from '../http/app-env.js';
import { assertKnownAgent } from '../http/known-agent.js';
import { delegationIdParam } from '../http/path-ids.js';
import { parseBody } from '../http/validation.js';
import { ResumeDelegationBodySchema, SendDelegationMessageBodySchema } from './steering-schemas.js';

export function registerSteeringRoutes(
  app: Hono<AppEnv>,
  deps: {
    delegations: Delegations;
    secrets: SecretMasker;
    agentNames?: () => string[];
    /** Where a started delegation is followed (routes.ts). */
    linksOf(started: { delegationId: string; session: string }): Record<string, string>;
  },
): void {
  const { delegations, secrets } = deps;

  app.post('/delegations/:id/messages', async (c) => {
    const body = await parseBody(c, SendDelegationMessageBodySchema);
    const delegationId = delegationIdParam(c);
    // The message makes its agent act, with its owner's roles: as stopping it, the owner's right.
    await assertMayStop(
      delegations,
      c.get('caller'),
      delegationId,
      `sending a message to delegation ${delegationId}`,
    );
    const message = await delegations.send(
      delegationId,
      messageRequest({ ...body, from: c.get('caller').id }, secrets),
    );
    return c.json(secrets.value(message), 202);
  });

  app.post('/delegations/:id/resume', async (c) => {
    const body = await parseBody(c, ResumeDelegationBodySchema);
    const original = delegationIdParam(c);
    if (body.agent !== undefined) assertKnownAgent(deps.agentNames?.(), body.agent);
    // It reads the whole transcript, tool results included, as a fork does: the owner's right.
    await assertMayStop(delegations, c.get('caller'), original, `resuming delegation ${original}`);
    const resumed = await delegations.resume(
      original,
      resumeRequest({ ...body, caller: c.get('caller') }, secrets),
    );
    return c.json(
      secrets.value({ ...resumed, status: 'running', result: null, links: deps.linksOf(resumed) }),
      201,
    );
  });
}
