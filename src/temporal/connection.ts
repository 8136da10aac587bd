/**
 * Connects to Temporal: `TEMPORAL_ADDRESS` / config when set, otherwise the dev server that
 * `deputy dev` recorded in its data directory, as long as that `deputy dev` still runs it.
 */
import { Client, Connection } from '@temporalio/client';
import { clientTracing } from '../tracing/client-tracing.js';
import type { DeputyConfig } from '../config/schema.js';
import { inspectRecordedServer, serverInfoPath } from '../servers/dev/server-record.js';

import { TemporalUnreachableError } from './unreachable.js';

// Where it always was for the CLI; it lives in unreachable.ts so the facade can throw it too.
export { TemporalUnreachableError };

/** Milliseconds connecting may take: a local server needs a few, a remote one with TLS < 1000. */
const CONNECT_TIMEOUT_MS = 3_000;
/** Longest pause between reconnects once Temporal went away, milliseconds. */
const RECONNECT_BACKOFF_MS = 2_000;

export interface TemporalHandle {
  address: string;
  connection: Connection;
  client: Client;
  close(): Promise<void>;
}

/** The address to use; throws TemporalUnreachableError saying why there is none. */
export function temporalAddress(config: DeputyConfig): string {
  if (config.temporal.address) return config.temporal.address;
  const recorded = inspectRecordedServer(config.dataDir);
  const hint = 'run `deputy dev` or set TEMPORAL_ADDRESS';
  switch (recorded.state) {
    case 'owned':
    case 'unverifiable':
      return recorded.record.address;
    case 'none':
      throw new TemporalUnreachableError(
        `no Temporal server known for data directory ${config.dataDir}: ${hint}`,
      );
    // A recorded address alone proves nothing: the port may since serve another data directory.
    case 'stale':
      throw new TemporalUnreachableError(
        `the Temporal dev server recorded in ${serverInfoPath(config.dataDir)} (pid ${recorded.record.pid}) is not running: ${hint}`,
      );
    case 'orphaned':
      throw new TemporalUnreachableError(
        `the Temporal dev server recorded in ${serverInfoPath(config.dataDir)} (pid ${recorded.record.pid}) outlived the deputy that started it: run \`deputy dev\` (it stops that server and starts its own) or set TEMPORAL_ADDRESS`,
      );
  }
}

export async function connectTemporal(config: DeputyConfig): Promise<TemporalHandle> {
  const address = temporalAddress(config);
  let connection: Connection;
  try {
    connection = await Connection.connect({
      address,
      // A refused port is only reported at this deadline: keep it to "a few seconds" (exit 5).
      connectTimeout: CONNECT_TIMEOUT_MS,
      // gRPC backs off up to 2 minutes between reconnects to a server that went away; Temporal
      // restarting would keep the API answering 503 that long after it is back. Try every 2 s.
      channelArgs: { 'grpc.max_reconnect_backoff_ms': RECONNECT_BACKOFF_MS },
    });
  } catch (error) {
    throw new TemporalUnreachableError(
      `cannot reach Temporal at ${address} (${(error as Error).message}): is \`deputy dev\` running?`,
    );
  }
  const client = new Client({
    connection,
    namespace: config.temporal.namespace,
    ...(await clientTracing()),
  });
  return { address, connection, client, close: () => connection.close() };
}
