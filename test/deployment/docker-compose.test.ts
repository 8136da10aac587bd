/**
 * Docker cannot run here, so this test is the guard for docker-compose.yml and the Dockerfile:
 * services, pinned images, ports and environment, checked against the code they must agree with.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  TEMPORAL_SERVER_VERSION,
  TEMPORAL_UI_VERSION,
} from '../../src/servers/cluster/cluster-tools.js';
import {
  CLUSTER_HISTORY_SHARDS,
  TUNED_DYNAMIC_CONFIG,
} from '../../src/servers/cluster/server-config.js';
import { loadConfig } from '../../src/config/load.js';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../src/shared/workflow-contract/search-attributes.js';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string> | string[];
  ports?: string[];
  volumes?: string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const root = new URL('../../', import.meta.url);
const compose = parseYaml(readFileSync(new URL('docker-compose.yml', root), 'utf8')) as ComposeFile;
const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (found === undefined) {
    throw new Error(`docker-compose.yml has no service '${name}'`);
  }
  return found;
}

function environment(name: string): Record<string, string> {
  const env = service(name).environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, String(value)]));
}

/** `[host-ip:]host:container` -> the container port. */
function containerPorts(name: string): number[] {
  return (service(name).ports ?? []).map((mapping) => Number(String(mapping).split(':').at(-1)));
}

function commandText(name: string): string {
  const { command } = service(name);
  return Array.isArray(command) ? command.join(' ') : (command ?? '');
}

function dependencies(name: string): string[] {
  const dependsOn = service(name).depends_on ?? [];
  return Array.isArray(dependsOn) ? dependsOn : Object.keys(dependsOn);
}

describe('docker-compose.yml', () => {
  it('has Temporal on PostgreSQL, the UI, the search-attribute setup, the worker and the API', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['api', 'postgresql', 'temporal', 'temporal-setup', 'temporal-ui', 'worker'].sort(),
    );
    expect(service('postgresql').image).toMatch(/^postgres:/);
    expect(service('temporal').image).toMatch(/^temporalio\/auto-setup:/);
    expect(service('temporal-ui').image).toMatch(/^temporalio\/ui:/);
    expect(service('temporal-setup').image).toMatch(/^temporalio\/admin-tools:/);
  });

  it('pins every image tag (no `latest`, no missing tag), here and in the Dockerfile', () => {
    const images = Object.values(compose.services).flatMap((entry) =>
      entry.image === undefined ? [] : [entry.image],
    );
    const fromLines = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1] ?? '');
    expect(fromLines.length).toBeGreaterThan(0);
    for (const image of [...images, ...fromLines]) {
      const tag = image.includes(':') ? image.slice(image.lastIndexOf(':') + 1) : '';
      expect(tag, image).toMatch(/^\d+(\.\d+)+/);
      expect(tag, image).not.toContain('latest');
    }
  });

  it('runs Temporal on the postgresql service and publishes the frontend and UI ports', () => {
    const env = environment('temporal');
    expect(env.DB).toBe('postgres12');
    expect(env.POSTGRES_SEEDS).toBe('postgresql');
    expect(env.POSTGRES_USER).toBe(environment('postgresql').POSTGRES_USER);
    expect(env.POSTGRES_PWD).toBe(environment('postgresql').POSTGRES_PASSWORD);
    expect(dependencies('temporal')).toContain('postgresql');
    expect(containerPorts('temporal')).toContain(7233);
    expect(containerPorts('temporal-ui')).toContain(8080);
    expect(environment('temporal-ui').TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it("runs the cluster profile's shard count, dynamic config file and server version", () => {
    const env = environment('temporal');
    expect(env.NUM_HISTORY_SHARDS).toBe(String(CLUSTER_HISTORY_SHARDS));
    const mount = (service('temporal').volumes ?? []).find((volume) =>
      volume.startsWith('./deploy/'),
    );
    const [source, target] = (mount ?? '').split(':');
    expect(new URL(source ?? '', root).pathname).toBe(TUNED_DYNAMIC_CONFIG);
    expect(env.DYNAMIC_CONFIG_FILE_PATH).toBe(target);
    expect(service('temporal').image).toBe(`temporalio/auto-setup:${TEMPORAL_SERVER_VERSION}`);
    expect(service('temporal-ui').image).toBe(`temporalio/ui:${TEMPORAL_UI_VERSION}`);
    // The file itself is dynamic config: keys with a list of constrained values.
    const dynamic = parseYaml(readFileSync(TUNED_DYNAMIC_CONFIG, 'utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(dynamic).length).toBeGreaterThan(0);
    for (const [key, values] of Object.entries(dynamic)) {
      expect(key).toMatch(/^[a-z]+\.[A-Za-z.]+$/);
      expect(Array.isArray(values) && values.every((entry) => 'value' in entry), key).toBe(true);
    }
  });

  it('registers exactly the search attributes the code defines, with their types', () => {
    const registered = (environment('temporal-setup').DEPUTY_SEARCH_ATTRIBUTES ?? '')
      .trim()
      .split(/\s+/)
      .map((pair) => {
        const [name, type] = pair.split('=');
        return { name, type: type?.toUpperCase() };
      });
    const defined = CUSTOM_SEARCH_ATTRIBUTES.map((key) => ({
      name: key.name,
      type: key.type.toUpperCase(),
    }));
    const byName = (a: { name?: string }, b: { name?: string }) =>
      String(a.name).localeCompare(String(b.name));
    expect(registered.sort(byName)).toEqual(defined.sort(byName));
    expect(commandText('temporal-setup')).toContain('temporal operator search-attribute create');
    expect(commandText('temporal-setup')).toContain('$$DEPUTY_SEARCH_ATTRIBUTES');
    expect(environment('temporal-setup').TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it('runs the worker and the API from the repository image with their subcommands', () => {
    for (const [name, subcommand] of [
      ['worker', 'worker'],
      ['api', 'api'],
    ] as const) {
      expect(service(name).build, name).toBeDefined();
      expect(service(name).command).toEqual(['node', 'bin/deputy.mjs', subcommand]);
      expect(dependencies(name)).toContain('temporal-setup');
    }
  });

  it('points the worker and the API at the temporal service and a shared /workspace volume', () => {
    const [host, port] = ['temporal', 7233];
    for (const name of ['worker', 'api']) {
      const env = environment(name);
      expect(env.TEMPORAL_ADDRESS, name).toBe(`${host}:${port}`);
      expect(env.DEPUTY_WORKSPACE, name).toBe('/workspace');
      expect(service(name).volumes, name).toContain('workspace:/workspace');
    }
    expect(compose.services[host]).toBeDefined();
    expect(containerPorts(host)).toContain(port);
    expect(compose.volumes).toHaveProperty('workspace');
  });

  describe('API port', () => {
    let workspace: string;
    beforeAll(() => {
      workspace = mkdtempSync(join(tmpdir(), 'deputy-compose-'));
    });
    afterAll(() => {
      rmSync(workspace, { recursive: true, force: true });
    });

    it('listens on all interfaces inside the container, on the configured default port', () => {
      const defaultPort = loadConfig({ workspace }, {}).api.port;
      const env = environment('api');
      expect(env.DEPUTY_HOST).toBe('0.0.0.0');
      expect(Number(env.DEPUTY_PORT ?? defaultPort)).toBe(defaultPort);
      expect(containerPorts('api')).toEqual([defaultPort]);
      // The port the API really listens on with the compose environment.
      expect(loadConfig({ workspace }, env).api).toEqual({ host: '0.0.0.0', port: defaultPort });
      // Without tokens the API refuses a non-loopback host unless told so (test/api/server.test.ts).
      expect(env.DEPUTY_ALLOW_UNAUTHENTICATED_BIND).toBe('1');
      expect(service('api').ports).toEqual(['127.0.0.1:4780:4780']);
    });
  });
});

describe('Dockerfile', () => {
  it('installs with npm ci from the lockfile on a Debian (glibc) Node 20 image', () => {
    expect(dockerfile).toMatch(/^FROM node:20\.\d+\.\d+-bookworm/m);
    expect(dockerfile).toMatch(/COPY package\.json package-lock\.json/);
    expect(dockerfile).toMatch(/RUN npm ci/);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('runs the packed package, as a project that installs deputy does: no sources, no tsx', () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(dockerfile).toMatch(/RUN .*npm pack/);
    expect(runtime).toMatch(/COPY --from=package \S*deputy\.tgz/);
    expect(runtime).toMatch(/RUN npm ci --omit=dev/);
    // Nothing of the build context beyond the manifests: src/ would make bin/ run it through tsx.
    const copies = [...runtime.matchAll(/^COPY (?!--from)(.*)$/gm)].map((match) => match[1]);
    expect(copies).toEqual(['package.json package-lock.json ./']);
    expect(runtime).toMatch(/^CMD \["node", "bin\/deputy\.mjs", "worker"\]$/m);
    const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
  });

  it('keeps local state and secrets out of the build context', () => {
    const ignored = readFileSync(new URL('.dockerignore', root), 'utf8').split('\n');
    for (const entry of ['node_modules', '.git', '.deputy', '.env']) {
      expect(ignored).toContain(entry);
    }
  });
});
