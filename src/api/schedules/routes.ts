/**
 * Schedules: recurring delegations on Temporal Schedules. Creating one needs what
 * starting a delegation needs (any caller the API lets in); its runs run as its creator, so
 * pausing, resuming, triggering and deleting it are its creator's or an admin's, as stopping a
 * delegation is. Reading schedules is anyone's, as listing delegations is.
 */
import type { Context, Hono } from 'hono';
import type { LiveConfig } from '../../config/live-config.js';
import { DeputyError } from '../../errors.js';
import { isOwnerOrAdmin, ownerOrAdminRefusal } from '../../rights/rights.js';
import { scheduleCreation } from '../../temporal/schedules/create-request.js';
import { unknownSchedule, isValidScheduleName } from '../../temporal/schedules/names.js';
import type { Schedules } from '../../temporal/schedules/types.js';
import type { SecretMasker } from '../../secrets/masker.js';
import type { AppEnv } from '../http/app-env.js';
import { assertKnownAgent } from '../http/known-agent.js';
import { parseBody } from '../http/validation.js';
import { CreateScheduleBodySchema, PauseScheduleBodySchema } from './schemas.js';

export function registerScheduleRoutes(
  app: Hono<AppEnv>,
  deps: {
    /** Without it every schedule route answers 503 (the app was built without them). */
    schedules?: Schedules | undefined;
    secrets: SecretMasker;
    /** Its `schedules` section, read per request: how often a caller's schedules may run. */
    settings: LiveConfig;
    agentNames?: (() => string[]) | undefined;
  },
): void {
  const { secrets } = deps;
  const schedulesOf = (): Schedules => {
    if (deps.schedules === undefined) {
      throw new DeputyError('unavailable', 'schedules are not available on this server');
    }
    return deps.schedules;
  };
  /** The schedule named in the path, once the caller may change it (its creator or an admin). */
  const changeable = async (c: Context<AppEnv>, action: string): Promise<string> => {
    const name = nameParam(c);
    const schedules = schedulesOf();
    if (!(await isOwnerOrAdmin({ owner: (id) => schedules.owner(id) }, c.get('caller'), name))) {
      throw ownerOrAdminRefusal(`${action} schedule ${name}`);
    }
    return name;
  };

  app.post('/schedules', async (c) => {
    const body = await parseBody(c, CreateScheduleBodySchema);
    assertKnownAgent(deps.agentNames?.(), body.agent);
    const created = await schedulesOf().create(
      scheduleCreation(
        body.name,
        { ...body, caller: c.get('caller') },
        secrets,
        deps.settings.current().schedules,
      ),
    );
    return c.json(secrets.value(created), 201);
  });

  app.get('/schedules', async (c) =>
    c.json(secrets.value({ schedules: await schedulesOf().list() })),
  );

  app.get('/schedules/:name', async (c) =>
    c.json(secrets.value(await schedulesOf().get(nameParam(c)))),
  );

  app.post('/schedules/:name/pause', async (c) => {
    const body = await parseBody(c, PauseScheduleBodySchema);
    const name = await changeable(c, 'pausing');
    return c.json(secrets.value(await schedulesOf().pause(name, body.note)));
  });

  app.post('/schedules/:name/resume', async (c) => {
    const name = await changeable(c, 'resuming');
    return c.json(secrets.value(await schedulesOf().resume(name)));
  });

  app.post('/schedules/:name/trigger', async (c) => {
    const name = await changeable(c, 'triggering');
    return c.json(secrets.value(await schedulesOf().trigger(name)), 202);
  });

  app.delete('/schedules/:name', async (c) => {
    const name = await changeable(c, 'deleting');
    return c.json(secrets.value(await schedulesOf().delete(name)));
  });
}

/** A name that cannot exist is 404 without asking Temporal, as a malformed delegation id is. */
function nameParam(c: Context): string {
  const name = c.req.param('name') ?? '';
  if (!isValidScheduleName(name)) throw unknownSchedule(name);
  return name;
}
