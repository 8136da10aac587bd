/**
 * A quiet install: what `npm install deputy` installs, read from package-lock.json,
 * runs no install script that comes from a dependency deputy chose itself. npm prints an
 * "install scripts not yet covered" warning for each one (and runs it: a native build, a
 * telemetry ping). The Temporal SDK's (@swc/core, protobufjs) and tsx's (esbuild) are not ours
 * to remove, so what is reached only through them is left out.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';

interface LockedPackage {
  version?: string;
  hasInstallScript?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Dependencies whose own install scripts are out of deputy's hands. */
const NOT_OURS = (name: string) => name.startsWith('@temporalio/') || name === 'tsx';

/** What a consumer's npm installs with the package: no devDependencies, no optional peers. */
function installedWith(entry: LockedPackage): string[] {
  const optionalPeers = new Set(
    Object.entries(entry.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta.optional === true)
      .map(([name]) => name),
  );
  return [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.optionalDependencies ?? {}),
    ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers.has(name)),
  ];
}

/** Node's lookup: the nearest `node_modules/<name>` from the requiring package's folder up. */
function locate(
  packages: Record<string, LockedPackage>,
  from: string,
  name: string,
): string | undefined {
  let folder = from;
  for (;;) {
    const candidate = folder === '' ? `node_modules/${name}` : `${folder}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (folder === '') return undefined;
    const parent = folder.lastIndexOf('/node_modules/');
    folder = parent === -1 ? '' : folder.slice(0, parent);
  }
}

type Lock = Record<string, LockedPackage>;

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(join(PROJECT_ROOT, file), 'utf8')) as T;
}

/** Every installed package reached from `roots`, by lockfile path, with one way it is reached. */
function reachable(packages: Lock, roots: readonly string[]): Map<string, string> {
  const reached = new Map<string, string>();
  const visit = (path: string, via: string): void => {
    if (reached.has(path)) return;
    reached.set(path, via);
    for (const name of installedWith(packages[path]!)) {
      const found = locate(packages, path, name);
      if (found !== undefined) visit(found, `${via} > ${name}`);
    }
  };
  for (const name of roots) {
    const found = locate(packages, '', name);
    expect(found, `${name} is in package-lock.json`).toBeDefined();
    visit(found!, name);
  }
  return reached;
}

function withInstallScript(packages: Lock, reached: Map<string, string>): string[] {
  return [...reached]
    .filter(([path]) => packages[path]!.hasInstallScript === true)
    .map(([path, via]) => `${path} ${packages[path]!.version ?? ''}, through ${via}`);
}

describe('npm install deputy', () => {
  it("runs no install script of a dependency deputy chose (the Temporal SDK's and tsx's aside)", async () => {
    const { packages } = await readJson<{ packages: Lock }>('package-lock.json');
    const { dependencies } = await readJson<{ dependencies: Record<string, string> }>(
      'package.json',
    );
    const ours = Object.keys(dependencies).filter((name) => !NOT_OURS(name));
    expect(ours.length).toBeGreaterThan(0);
    expect(withInstallScript(packages, reachable(packages, ours))).toEqual([]);
  });

  it('sees the install scripts that come with the Temporal SDK (the walk is not vacuous)', async () => {
    const { packages } = await readJson<{ packages: Lock }>('package-lock.json');
    const scripted = withInstallScript(packages, reachable(packages, ['@temporalio/worker']));
    expect(scripted).toContainEqual(expect.stringMatching(/^node_modules\/@swc\/core /));
  });
});
