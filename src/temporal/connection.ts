/**
 * Connects to Temporal: `TEMPORAL_ADDRESS` / config when set, otherwise the dev server that
 * `deputy dev` recorded in its data directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import type { DeputyConfig } from '../config.js';
import { serverInfoPath } from './dev-server.js';

export class TemporalUnreachableError extends Error {
  override readonly name = 'TemporalUnreachableError';
}

export interface TemporalHandle {
  address: string;
  connection: Connection;
  client: Client;
  close(): Promise<void>;
}

/** The address to use, or null when nothing says where Temporal is. */
export function temporalAddress(config: DeputyConfig): string | null {
  if (config.temporal.address) return config.temporal.address;
  const infoPath = serverInfoPath(config.dataDir);
  if (!existsSync(infoPath)) return null;
  try {
    const info = JSON.parse(readFileSync(infoPath, 'utf8')) as { address?: unknown };
    return typeof info.address === 'string' ? info.address : null;
  } catch {
    return null;
  }
}

export async function connectTemporal(config: DeputyConfig): Promise<TemporalHandle> {
  const address = temporalAddress(config);
  if (!address) {
    throw new TemporalUnreachableError(
      `no Temporal server known for data directory ${config.dataDir}: run \`deputy dev\` or set TEMPORAL_ADDRESS`,
    );
  }
  let connection: Connection;
  try {
    connection = await Connection.connect({ address, connectTimeout: 5000 });
  } catch (error) {
    throw new TemporalUnreachableError(
      `cannot reach Temporal at ${address} (${(error as Error).message}): is \`deputy dev\` running?`,
    );
  }
  const client = new Client({ connection, namespace: config.temporal.namespace });
  return { address, connection, client, close: () => connection.close() };
}
