/**
 * The facades every front door (the HTTP API, the CLI, `deputy chat`, the local client) works
 * through, wired once to a configuration's Temporal settings. The start requests they send are
 * built in start-requests.ts.
 */
import type { Client } from '@temporalio/client';
import type { DeputyConfig } from '../config/schema.js';
import type { SecretMasker } from '../secrets/masker.js';
import { toolQueueOf } from '../shared/workflow-contract/tool-queue.js';
import { createDelegations } from './delegations/facade.js';
import type { Delegations } from './delegations/types.js';
import { createSessions } from './sessions/facade.js';
import { createSchedules } from './schedules/facade.js';
import type { Schedules } from './schedules/types.js';
import type { Sessions } from './sessions/types.js';

export interface Facades {
  delegations: Delegations;
  sessions: Sessions;
  /** Recurring delegations on Temporal Schedules (src/temporal/schedules). */
  schedules: Schedules;
}

/**
 * The Delegations and Sessions facades for a configuration: its namespace and task queue, and
 * its workspace's tool queue, where the delegations and sessions started here run their tools.
 * `secrets` masks what people write into decisions: required, so no door composes a facade
 * that would send a typed secret into a run.
 */
export function facadesFor(
  client: Client,
  temporal: DeputyConfig['temporal'],
  secrets: SecretMasker,
): Facades {
  const { namespace, taskQueue } = temporal;
  const toolQueue = toolQueueOf(temporal);
  const delegations = createDelegations(client, { namespace, taskQueue, toolQueue, secrets });
  const sessions = createSessions(client, delegations, { taskQueue, toolQueue });
  const schedules = createSchedules({
    client,
    queues: { taskQueue, toolQueue },
    runsOf: (schedule) => delegations.list({ schedule }),
  });
  return { delegations, sessions, schedules };
}
