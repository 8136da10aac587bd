/**
 * The API on a Unix socket in the data directory, beside its TCP port: the CLI's way in
 * (src/cli/local-api.ts). A command like `deputy cards` then costs one small HTTP request instead of
 * loading the Temporal SDK and connecting (about 0.3 s of a short command). Requests on this
 * socket are the local operator's (src/api/http/local-caller.ts), so the socket is kept to the owner:
 * its directory is 0700 and the socket 0600.
 *
 * Never fatal: without the socket the CLI talks to Temporal itself, as before. Each reason it is
 * not opened is logged once.
 */
import { lstatSync, mkdirSync, chmodSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Logger } from './api/http/errors.js';
import type { AppEnv } from './api/http/app-env.js';
import { createServerRefusingMalformedHosts } from './api/http/host-syntax.js';
import { localApiSocketPath } from './paths/workspace-directories.js';

/** sockaddr_un holds 108 bytes on Linux, 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

export interface LocalSocket {
  path: string;
  close(): Promise<void>;
}

export async function listenOnLocalSocket(
  app: Hono<AppEnv>,
  dataDir: string,
  logger: Logger,
): Promise<LocalSocket | null> {
  const path = localApiSocketPath(dataDir);
  const skip = (why: string): null => {
    logger.warn(`local socket ${path} not opened (${why}): the CLI will talk to Temporal itself`);
    return null;
  };
  if (process.platform === 'win32') return null;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) return skip('path too long for a socket');
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  const existing = lstatSync(path, { throwIfNoEntry: false });
  if (existing !== undefined) {
    if (!existing.isSocket()) return skip('a file that is not a socket is in its place');
    if (await answers(path)) return skip('another deputy API serves this data directory');
    rmSync(path); // left by an API that did not stop cleanly
  }
  const server = createAdaptorServer({
    fetch: (request, env) => app.fetch(request, { ...env, localOperator: true }),
    // The same refusal of a malformed Host as on the TCP port (src/api/http/host-syntax.ts).
    createServer: createServerRefusingMalformedHosts,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      chmodSync(path, 0o600);
      resolve();
    });
  });
  return {
    path,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        // node removes the socket file when the server closes.
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** True when something accepts connections on the socket at `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
