/**
 * The Temporal server's static configuration for the cluster profile, and the UI server's, as
 * files under the cluster folder. Rendered from the ports chosen at first start; the SQL
 * password is not written here: the server's template reads it from the environment
 * (`{{ env ... }}`, Temporal's `# enable-template`), so these files hold no secret.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../config/load.js';

/**
 * History shards: fixed for the life of a cluster's database (Temporal cannot reshard), so pick
 * it for the load you expect to grow into (docs/operations.md, "Sizing a cluster").
 * docker-compose.yml sets the same number (test/deployment checks it).
 */
export const CLUSTER_HISTORY_SHARDS = 4;

/** The dynamic config the cluster profile and docker-compose share (one file). */
export const TUNED_DYNAMIC_CONFIG = join(PROJECT_ROOT, 'deploy', 'temporal', 'dynamicconfig.yaml');

export const TEMPORAL_SERVICES = ['history', 'matching', 'frontend', 'worker'] as const;
export type TemporalService = (typeof TEMPORAL_SERVICES)[number];

export interface ClusterPorts {
  postgres: number;
  ui: number;
  frontendHttp: number;
  /** Per service: its gRPC port and its membership (ringpop) port. */
  grpc: Record<TemporalService, number>;
  membership: Record<TemporalService, number>;
}

/** The environment variable the rendered config reads the SQL password from. */
export const SQL_PASSWORD_ENV = 'DEPUTY_CLUSTER_SQL_PASSWORD';

export interface RenderedConfig {
  /** `--root` for the server: holds `config/development.yaml`. */
  serverRoot: string;
  /** `--root` for the UI server: holds `config/base.yaml` and `config/development.yaml`. */
  uiRoot: string;
}

export async function renderClusterConfig(
  clusterDir: string,
  ports: ClusterPorts,
  dynamicConfigFile: string,
): Promise<RenderedConfig> {
  const serverRoot = join(clusterDir, 'temporal');
  const uiRoot = join(clusterDir, 'ui');
  await mkdir(join(serverRoot, 'config'), { recursive: true });
  await mkdir(join(uiRoot, 'config'), { recursive: true });

  const datastore = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `127.0.0.1:${ports.postgres}`,
      connectProtocol: 'tcp',
      user: 'temporal',
      password: '__PASSWORD__',
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const services = Object.fromEntries(
    TEMPORAL_SERVICES.map((service) => [
      service,
      {
        rpc: {
          grpcPort: ports.grpc[service],
          membershipPort: ports.membership[service],
          bindOnLocalHost: true,
          ...(service === 'frontend' ? { httpPort: ports.frontendHttp } : {}),
        },
      },
    ]),
  );
  const config = {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: CLUSTER_HISTORY_SHARDS,
      datastores: {
        'postgres-default': datastore('temporal', 20),
        'postgres-visibility': datastore('temporal_visibility', 4),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services,
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${ports.grpc.frontend}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: dynamicConfigFile, pollInterval: '10s' },
  };
  const yaml = stringify(config).replaceAll(
    '__PASSWORD__',
    `{{ env "${SQL_PASSWORD_ENV}" | quote }}`,
  );
  await writeFile(
    join(serverRoot, 'config', 'development.yaml'),
    `# enable-template (the SQL password comes from ${SQL_PASSWORD_ENV})\n# Written by deputy cluster start; edits are overwritten.\n${yaml}`,
  );

  await writeFile(join(uiRoot, 'config', 'base.yaml'), '');
  await writeFile(
    join(uiRoot, 'config', 'development.yaml'),
    stringify({
      temporalGrpcAddress: `127.0.0.1:${ports.grpc.frontend}`,
      host: '127.0.0.1',
      port: ports.ui,
      enableUi: true,
      defaultNamespace: 'default',
      notifyOnNewVersion: false,
      cors: { cookieInsecure: true, allowOrigins: [] },
    }),
  );
  return { serverRoot, uiRoot };
}
