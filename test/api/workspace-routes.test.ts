/**
 * The editor's workspace pickers in-process, over real temp directories: `GET /workspace/skills`
 * (layered discovery with what it skipped) and `GET /workspace/directories` (subdirectories for
 * knowledge sources: containment, hidden roots, symbolic links, truncation).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fg from 'fast-glob';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import { DirectoryListSchema, SkillListSchema } from '../../src/api/workspace/schemas.js';
import { fixedConfig } from '../../src/config/live-config.js';
import { authoringLayout } from './authoring-app.js';
import { bearer } from './make-app.js';
import { stubDelegations } from './stub-delegations.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** The app over a fresh workspace whose data directory is inside it (`.deputy`), as by default. */
function workspaceApp(options: { auth?: boolean } = {}) {
  const layout = authoringLayout('deputy-pickers-', options);
  roots.push(layout.root);
  const { workspace } = layout;
  const config = { ...layout.config, dataDir: join(workspace, '.deputy') };
  const app = createApp({
    delegations: stubDelegations().delegations,
    config,
    settings: fixedConfig(config),
    auth: createAuth(config, layout.env),
    logger: { error: () => {}, warn: () => {}, info: () => {} },
  });
  return { app, workspace, root: layout.root, config };
}

function skill(directory: string, name: string, description?: string): void {
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    join(directory, 'SKILL.md'),
    `---\nname: ${name}\n${description === undefined ? '' : `description: ${description}\n`}---\nBody of ${name}.\n`,
  );
}

interface Listing {
  v: 1;
  path: string;
  parent: string | null;
  directories: Array<{ name: string; path: string; glob: string | null }>;
  truncated: boolean;
}

async function directories(
  app: ReturnType<typeof workspaceApp>['app'],
  path?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Listing & { error?: string; message?: string } }> {
  const query = path === undefined ? '' : `?path=${encodeURIComponent(path)}`;
  const response = await app.request(`/workspace/directories${query}`, { headers });
  const body = (await response.json()) as Listing & { error?: string; message?: string };
  if (response.status === 200) expect(DirectoryListSchema.parse(body)).toEqual(body);
  return { status: response.status, body };
}

const names = (listing: Listing) => listing.directories.map((directory) => directory.name);

describe('GET /workspace/skills', () => {
  it('lists every discovered skill by name, with its layer and location; skipped ones as diagnostics', async () => {
    const { app, workspace } = workspaceApp();
    skill(join(workspace, '.subagents', 'skills', 'zeta'), 'zeta', 'Workspace skill');
    skill(join(workspace, '.claude', 'skills', 'alpha'), 'alpha', 'Claude skill');
    skill(join(workspace, '.claude', 'skills', 'zeta-copy'), 'zeta', 'Shadowed by the workspace');
    skill(join(workspace, '.subagents', 'skills', 'broken'), 'broken');

    const response = await app.request('/workspace/skills');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      v: 1;
      skills: Array<{ name: string; description: string; layer: string; location: string }>;
      diagnostics: Array<{ severity: string; path: string; code: string; message: string }>;
    };
    expect(SkillListSchema.parse(body)).toEqual(body);
    expect(body.v).toBe(1);
    const listed = body.skills.map((entry) => entry.name);
    expect(listed).toEqual([...listed].sort());
    expect(body.skills).toContainEqual({
      name: 'zeta',
      description: 'Workspace skill',
      layer: 'workspace',
      location: '.subagents/skills/zeta/SKILL.md',
    });
    expect(body.skills).toContainEqual({
      name: 'alpha',
      description: 'Claude skill',
      layer: 'ecosystem-workspace',
      location: '.claude/skills/alpha/SKILL.md',
    });
    // The runtime's own skills/ (outside the workspace: an absolute location).
    const system = body.skills.find((entry) => entry.layer === 'system');
    expect(system?.location.startsWith('/')).toBe(true);
    expect(listed).not.toContain('broken');
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        code: 'skill.invalid',
        path: '.subagents/skills/broken/SKILL.md',
      }),
    );
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'skill.shadowed',
        path: '.claude/skills/zeta-copy/SKILL.md',
      }),
    );
  });
});

describe('GET /workspace/directories', () => {
  function tree(workspace: string, outside: string) {
    for (const directory of ['docs/api/v1', 'docs/guides', 'src', '.git/objects', '.deputy/x']) {
      mkdirSync(join(workspace, directory), { recursive: true });
    }
    writeFileSync(join(workspace, 'README.md'), '# hi\n');
    writeFileSync(join(workspace, 'docs', 'index.md'), '# docs\n');
    symlinkSync(join(workspace, 'docs'), join(workspace, 'docs-link'));
    symlinkSync(outside, join(workspace, 'out'));
    symlinkSync(join(workspace, 'README.md'), join(workspace, 'readme-link'));
    symlinkSync(join(workspace, 'gone'), join(workspace, 'dangling'));
  }

  function outsideDirectory(): string {
    const outside = mkdtempSync(join(tmpdir(), 'deputy-outside-'));
    roots.push(outside);
    mkdirSync(join(outside, 'secret-dir'));
    return outside;
  }

  it('lists the root: directories only, sorted, without .git, the data directory or links out', async () => {
    const { app, workspace } = workspaceApp();
    tree(workspace, outsideDirectory());
    const { status, body } = await directories(app);
    expect(status).toBe(200);
    expect(body).toMatchObject({ v: 1, path: '', parent: null, truncated: false });
    expect(names(body)).toEqual(['.subagents', 'docs', 'docs-link', 'src']);
    expect(body.directories.find((entry) => entry.name === 'docs')).toEqual({
      name: 'docs',
      path: 'docs',
      glob: 'docs/**/*',
    });
    expect((await directories(app, '')).body).toEqual(body);
  });

  it('lists a nested directory with its parent, normalizing the path', async () => {
    const { app, workspace } = workspaceApp();
    tree(workspace, outsideDirectory());
    const docs = await directories(app, 'docs');
    expect(docs.status).toBe(200);
    expect(docs.body).toMatchObject({ path: 'docs', parent: '', truncated: false });
    expect(docs.body.directories).toEqual([
      { name: 'api', path: 'docs/api', glob: 'docs/api/**/*' },
      { name: 'guides', path: 'docs/guides', glob: 'docs/guides/**/*' },
    ]);
    const api = await directories(app, './docs//api/');
    expect(api.body).toMatchObject({ path: 'docs/api', parent: 'docs' });
    expect(api.body.directories).toEqual([
      { name: 'v1', path: 'docs/api/v1', glob: 'docs/api/v1/**/*' },
    ]);
    // `..` that stays inside is only a way of writing a path.
    expect((await directories(app, 'docs/api/..')).body.path).toBe('docs');
  });

  it('lists through a symbolic link that stays inside, under the name it was reached by', async () => {
    const { app, workspace } = workspaceApp();
    tree(workspace, outsideDirectory());
    const { status, body } = await directories(app, 'docs-link');
    expect(status).toBe(200);
    expect(body.directories).toEqual([
      { name: 'api', path: 'docs-link/api', glob: 'docs-link/api/**/*' },
      { name: 'guides', path: 'docs-link/guides', glob: 'docs-link/guides/**/*' },
    ]);
  });

  it.each([
    ['a path that climbs out', '..', 'leaves the workspace'],
    ['a path that climbs out further down', 'docs/../../etc', 'leaves the workspace'],
    ['an absolute path', '/etc', 'absolute'],
    ['a home path', '~/projects', 'absolute'],
    ['a NUL byte', 'docs\0', 'NUL'],
    ['a symbolic link out of the workspace', 'out', 'symbolic link'],
    ['a path through a link out of the workspace', 'out/secret-dir', 'symbolic link'],
    ['the data directory', '.deputy', 'hidden'],
    ['.git', '.git/objects', 'hidden'],
  ])('refuses %s with 422 saying why', async (_what, path, reason) => {
    const { app, workspace } = workspaceApp();
    tree(workspace, outsideDirectory());
    const { status, body } = await directories(app, path);
    expect(status).toBe(422);
    expect(body.error).toBe('invalid_request');
    expect(body.message).toContain(reason);
  });

  it.each([
    ['a file', 'README.md'],
    ['a link to a file', 'readme-link'],
    ['a missing directory', 'nope'],
    ['a dangling link', 'dangling'],
  ])('answers 404 for %s', async (_what, path) => {
    const { app, workspace } = workspaceApp();
    tree(workspace, outsideDirectory());
    const { status, body } = await directories(app, path);
    expect(status).toBe(404);
    expect(body.error).toBe('not_found');
  });

  it('answers 422 for an unknown query key', async () => {
    const { app } = workspaceApp();
    const response = await app.request('/workspace/directories?dir=docs');
    expect(response.status).toBe(422);
  });

  it('caps the list at 500 by name and says it is truncated', async () => {
    const { app, workspace } = workspaceApp();
    for (let index = 0; index < 502; index += 1) {
      mkdirSync(join(workspace, 'many', `d${String(index).padStart(3, '0')}`), { recursive: true });
    }
    const { body } = await directories(app, 'many');
    expect(body.truncated).toBe(true);
    expect(body.directories).toHaveLength(500);
    expect(body.directories[0]?.name).toBe('d000');
    expect(body.directories.at(-1)?.name).toBe('d499');
  });

  it('writes a glob that matches the directory whatever its name holds', async () => {
    const { app, workspace } = workspaceApp();
    for (const name of ['notes [old]', 'a*b', '!bang', 'x{y,z}']) {
      mkdirSync(join(workspace, name));
      writeFileSync(join(workspace, name, 'file.md'), 'x\n');
    }
    writeFileSync(join(workspace, 'a-b-decoy.md'), 'x\n');
    const { body } = await directories(app);
    for (const entry of body.directories.filter((directory) => directory.name !== '.subagents')) {
      expect(entry.glob, entry.name).not.toBeNull();
      const matched = fg.sync(entry.glob!, { cwd: workspace, onlyFiles: true });
      expect(
        matched.map((file) => file.replace(/^\.\//, '')),
        entry.name,
      ).toEqual([`${entry.name}/file.md`]);
    }
  });

  it('needs the admin role with auth on, like the skills', async () => {
    const { app } = workspaceApp({ auth: true });
    for (const path of ['/workspace/directories', '/workspace/skills']) {
      const refused = await app.request(path, { headers: bearer('reader') });
      expect(refused.status, path).toBe(403);
      expect(await refused.json()).toMatchObject({ error: 'forbidden' });
      expect((await app.request(path)).status, path).toBe(401);
      expect((await app.request(path, { headers: bearer('admin') })).status, path).toBe(200);
    }
  });
});
