/**
 * How many delegations Temporal's visibility holds in each status, read at scrape time: the one
 * place that sees every delegation finish, whichever worker ran it and whoever started it (a
 * workflow cannot count itself: prom-client is not sandbox code). Counts cover what the
 * namespace keeps (its retention), so a finished status is "finished and not yet forgotten".
 * Each scrape asks once per status, in parallel, bounded by COUNT_TIMEOUT_MS; with Temporal
 * unreachable the family has no samples and `deputy_delegation_counts_up` is 0.
 */
import type { Client } from '@temporalio/client';
import { Gauge } from 'prom-client';
import { rpc } from './calls/rpc.js';
import { DELEGATION_WORKFLOW_TYPE } from './delegations/types.js';
import { registry } from '../metrics/deputy-metrics.js';

/** The statuses a delegation (not a session: `idle` is theirs) goes through. */
const STATUSES = ['running', 'parked', 'completed', 'failed', 'stopped'] as const;
const COUNT_TIMEOUT_MS = 2_000;

interface CountSource {
  client: Client;
  namespace: string;
}
const sources = new Set<CountSource>();

const up = new Gauge({
  name: 'deputy_delegation_counts_up',
  help: '1 when the last scrape could count delegations in Temporal visibility, else 0.',
  registers: [registry],
});

new Gauge({
  name: 'deputy_delegations',
  help: 'Delegations in Temporal visibility by status (running, parked, completed, failed, stopped), within the namespace retention.',
  labelNames: ['status'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (sources.size === 0) return;
    try {
      const counts = await Promise.all(
        [...sources].flatMap((source) =>
          STATUSES.map(async (status) => ({ status, count: await countOf(source, status) })),
        ),
      );
      for (const { status, count } of counts) this.inc({ status }, count);
      up.set(1);
    } catch {
      this.reset();
      up.set(0);
    }
  },
});

async function countOf({ client, namespace }: CountSource, status: string): Promise<number> {
  const query = `WorkflowType = '${DELEGATION_WORKFLOW_TYPE}' AND DeputyStatus = '${status}'`;
  const { count } = await rpc(
    client,
    () => client.workflowService.countWorkflowExecutions({ namespace, query }),
    COUNT_TIMEOUT_MS,
  );
  return Number(count ?? 0);
}

/** Counts `namespace`'s delegations through `client` at each scrape until the returned function is called. */
export function watchDelegationCounts(client: Client, namespace: string): () => void {
  const source = { client, namespace };
  sources.add(source);
  return () => sources.delete(source);
}
