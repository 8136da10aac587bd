import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HTTP_STATUS } from '../../src/errors.js';
import { sha256 } from '../../src/definitions/registry/revisions.js';
import { DeputyError, type DeputyErrorKind } from '../../src/errors.js';
import { agentFile, useTempRegistries } from './support.js';

const temp = useTempRegistries();

/** The refusal is a DeputyError of `kind`, which the API answers with `status`. */
async function expectError(
  promise: Promise<unknown>,
  kind: DeputyErrorKind,
  status: number,
): Promise<DeputyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeputyError);
  const refusal = error as DeputyError;
  expect(refusal.kind).toBe(kind);
  expect(HTTP_STATUS[refusal.kind]).toBe(status);
  if (kind === 'invalid') expect(refusal.code).toBe('invalid_config');
  return refusal;
}

describe('registry: levels', () => {
  it('loads every level with its read-only flag, content hash and file path', async () => {
    const builtin = await temp.layout.write(
      join(temp.layout.dirs.builtin, 'guide.md'),
      agentFile('guide'),
    );
    await temp.layout.write(join(temp.layout.dirs.builtin, 'README.md'), '# Built-in agents\n');
    await temp.layout.write(
      join(temp.layout.dirs.builtin, 'scripts', 'nested.md'),
      agentFile('nested'),
    );
    await temp.layout.write(join(temp.layout.dirs.user, 'mine.md'), agentFile('mine'));
    await temp.layout.write(join(temp.layout.dirs.project, 'local.md'), agentFile('local'));
    await temp.layout.write(
      join(temp.layout.dirs.claude, 'team', 'claude-one.md'),
      agentFile('claude-one', 'tools: Read, Grep\n'),
    );
    await temp.layout.write(
      join(temp.layout.dirs.qwen, 'qwen-one.md'),
      agentFile('qwen-one', 'tools: [read_file]\n'),
    );
    const registry = await temp.load();
    const summary = registry.list().map((e) => `${e.level}:${e.definition.name}:${e.readOnly}`);
    expect(summary).toEqual([
      'project:local:false',
      'user:mine:false',
      'ecosystem:claude-one:true',
      'ecosystem:qwen-one:true',
      'builtin:guide:true',
    ]);
    const guide = registry.get('guide')!;
    expect(guide.filePath).toBe(builtin);
    expect(guide.contentHash).toBe(sha256(await readFile(builtin)));
    expect(registry.get('claude-one')?.definition.tools).toEqual(['Read', 'Grep']);
    expect(registry.get('nested')).toBeUndefined();
    expect(registry.get('readme')).toBeUndefined();
  });

  it('sorts by displayOrder then name inside a level, never across levels', async () => {
    await temp.layout.write(
      join(temp.layout.dirs.project, 'b.md'),
      agentFile('b', 'displayOrder: 1\n'),
    );
    await temp.layout.write(
      join(temp.layout.dirs.project, 'a.md'),
      agentFile('a', 'displayOrder: 1\n'),
    );
    await temp.layout.write(
      join(temp.layout.dirs.project, 'z.md'),
      agentFile('z', 'displayOrder: -5\n'),
    );
    await temp.layout.write(
      join(temp.layout.dirs.builtin, 'first.md'),
      agentFile('first', 'displayOrder: -100\n'),
    );
    const registry = await temp.load();
    expect(registry.list().map((e) => e.definition.name)).toEqual(['z', 'a', 'b', 'first']);
  });

  it('resolves collisions project > user > ecosystem > builtin, with a diagnostic on both sides', async () => {
    for (const dir of [
      temp.layout.dirs.builtin,
      temp.layout.dirs.user,
      temp.layout.dirs.project,
      temp.layout.dirs.claude,
    ]) {
      await temp.layout.write(join(dir, 'same.md'), agentFile('same'));
    }
    await temp.layout.write(join(temp.layout.dirs.claude, 'eco.md'), agentFile('eco'));
    await temp.layout.write(join(temp.layout.dirs.builtin, 'eco.md'), agentFile('eco'));
    const registry = await temp.load();
    expect(registry.get('same')?.level).toBe('project');
    expect(registry.get('eco')?.level).toBe('ecosystem');
    expect(registry.list().filter((e) => e.definition.name === 'same')).toHaveLength(1);
    const all = registry.listAll().filter((e) => e.definition.name === 'same');
    expect(all.map((e) => e.level)).toEqual(['project', 'user', 'ecosystem', 'builtin']);
    const winner = all[0]!.diagnostics.filter((d) => d.code === 'definition.shadows');
    expect(winner).toHaveLength(3);
    for (const shadowed of all.slice(1)) {
      expect(shadowed.diagnostics.map((d) => d.code)).toContain('definition.shadowed-by');
    }
    expect(registry.get('same', 'builtin')?.level).toBe('builtin');
  });

  it('flags two files of one level with the same name', async () => {
    await temp.layout.write(join(temp.layout.dirs.project, 'one.md'), agentFile('dup'));
    await temp.layout.write(join(temp.layout.dirs.project, 'two.md'), agentFile('dup'));
    const registry = await temp.load();
    expect(registry.get('dup')?.filePath).toBe(join(temp.layout.dirs.project, 'one.md'));
    const loser = registry.listAll().find((e) => e.filePath.endsWith('two.md'))!;
    expect(loser.diagnostics.find((d) => d.code === 'definition.duplicate')?.severity).toBe(
      'error',
    );
  });

  it('uses the configured alias map', async () => {
    await temp.layout.write(
      join(temp.layout.dirs.claude, 'a.md'),
      agentFile('a', 'model: sonnet\n'),
    );
    const registry = await temp.load({ aliases: { sonnet: 'openai/gpt-4o-mini' } });
    expect(registry.get('a')?.definition.model).toBe('openai/gpt-4o-mini');
  });
});

describe('registry: authoring', () => {
  it('creates a definition strictly, writes it and reloads before answering', async () => {
    const registry = await temp.load();
    const created = await registry.create(
      'project',
      { name: 'writer', description: 'Writes', tools: ['read'] },
      '\nYou write.\n',
    );
    expect(created.level).toBe('project');
    expect(created.definition.tools).toEqual(['read']);
    expect(created.filePath).toBe(join(temp.layout.dirs.project, 'writer.md'));
    expect(registry.get('writer')?.definition.systemPrompt).toBe('\nYou write.\n');
    const user = await registry.create(
      'user',
      { name: 'mine', description: 'Mine', model: 'openai/gpt-4o-mini' },
      'x',
    );
    expect(user.filePath).toBe(join(temp.layout.dirs.user, 'mine.md'));
  });

  it('refuses invalid input with every issue and writes nothing', async () => {
    const registry = await temp.load();
    const error = await expectError(
      registry.create('project', { name: 'Bad Name', description: '', maxTurns: -1 }, 'x'),
      'invalid',
      422,
    );
    expect(error.issues.map((i) => i.path).sort()).toEqual(['description', 'maxTurns', 'name']);
    const model = await expectError(
      registry.create('project', { name: 'm', description: 'd', model: 'nope/model' }, 'x'),
      'invalid',
      422,
    );
    expect(model.issues[0]?.path).toBe('model');
    await expect(readdir(temp.layout.dirs.project)).rejects.toThrow();
  });

  it('refuses a built-in name or an existing name with 409', async () => {
    await temp.layout.write(join(temp.layout.dirs.builtin, 'guide.md'), agentFile('guide'));
    await temp.layout.write(join(temp.layout.dirs.claude, 'eco.md'), agentFile('eco'));
    const registry = await temp.load();
    const builtin = await expectError(
      registry.create('user', { name: 'guide', description: 'd' }, 'x'),
      'conflict',
      409,
    );
    expect(builtin.message).toContain('built-in');
    expect(builtin.code).toBe('agent_name_reserved');
    await registry.create('project', { name: 'mine', description: 'd' }, 'x');
    const taken = await expectError(
      registry.create('project', { name: 'mine', description: 'd' }, 'x'),
      'conflict',
      409,
    );
    expect(taken.code).toBe('agent_already_exists');
    // Another level may hold the name (qwen-code's workspace and global scopes): the higher
    // level wins, and both carry a shadowing diagnostic.
    await registry.create('user', { name: 'mine', description: 'd' }, 'x');
    expect(registry.get('mine')?.level).toBe('project');
    expect(registry.get('mine', 'user')?.diagnostics.map((d) => d.code)).toContain(
      'definition.shadowed-by',
    );
    await registry.create('project', { name: 'eco', description: 'd' }, 'x');
    expect(registry.get('eco')?.level).toBe('project');
  });

  it('refuses to change built-in and ecosystem definitions (403) and unknown names (404)', async () => {
    await temp.layout.write(join(temp.layout.dirs.builtin, 'guide.md'), agentFile('guide'));
    await temp.layout.write(join(temp.layout.dirs.claude, 'eco.md'), agentFile('eco'));
    const registry = await temp.load();
    await expectError(registry.update('guide', { description: 'x' }), 'read-only', 403);
    await expectError(registry.delete('guide'), 'read-only', 403);
    await expectError(registry.update('eco', { description: 'x' }), 'read-only', 403);
    await expectError(registry.delete('eco'), 'read-only', 403);
    await expectError(registry.update('ghost', { description: 'x' }), 'not-found', 404);
    await expectError(registry.delete('ghost'), 'not-found', 404);
    await expectError(
      registry.create('builtin' as 'user', { name: 'n', description: 'd' }, 'x'),
      'read-only',
      403,
    );
  });

  it('refuses to update a hand-dropped file that takes a built-in name', async () => {
    await temp.layout.write(join(temp.layout.dirs.builtin, 'guide.md'), agentFile('guide'));
    await temp.layout.write(join(temp.layout.dirs.user, 'guide.md'), agentFile('guide'));
    const registry = await temp.load();
    expect(registry.get('guide')?.level).toBe('user');
    await expectError(registry.update('guide', { description: 'x' }), 'conflict', 409);
  });

  it('updates only the fields sent, keeping comments and unknown keys', async () => {
    const text = `---\n# hand-written\nname: keeper\ndescription: Keeps # why\nvendorKey: { a: 1 }\ntools: [read]\n---\nBody\n`;
    const path = await temp.layout.write(join(temp.layout.dirs.project, 'keeper.md'), text);
    const registry = await temp.load();
    const { loaded: updated } = await registry.update('keeper', { maxTurns: 7, tools: [] });
    expect(updated.definition.maxTurns).toBe(7);
    expect(updated.definition.tools).toBeNull();
    expect(await readFile(path, 'utf8')).toBe(
      `---\n# hand-written\nname: keeper\ndescription: Keeps # why\nvendorKey: { a: 1 }\nmaxTurns: 7\n---\nBody\n`,
    );
    await expectError(registry.update('keeper', { name: 'other' }), 'invalid', 422);
    await expectError(registry.update('keeper', { description: '' }), 'invalid', 422);
    await expectError(registry.update('keeper', { bogus: 1 }), 'invalid', 422);
    const knowledge = await expectError(
      registry.update('keeper', { tools: ['grep'], knowledge: [{ name: 'k', glob: '*.md' }] }),
      'invalid',
      422,
    );
    expect(knowledge.issues).toEqual([
      { path: 'knowledge', message: expect.stringContaining('read') },
    ]);
    expect(registry.get('keeper')?.definition.maxTurns).toBe(7);
  });
});

describe('registry: concurrency and stale state', () => {
  it('runs concurrent saves one after the other, losing none', async () => {
    const registry = await temp.load();
    await registry.create('project', { name: 'busy', description: 'd' }, 'Body\n');
    await Promise.all([
      registry.update('busy', { color: 'red' }),
      registry.update('busy', { icon: 'star' }),
      registry.update('busy', { maxTurns: 3 }),
    ]);
    expect(registry.get('busy')?.definition).toMatchObject({
      color: 'red',
      icon: 'star',
      maxTurns: 3,
    });
    expect(await registry.revisions('busy')).toHaveLength(3);
  });

  it('answers not-found when the file was removed by hand since the last scan', async () => {
    const registry = await temp.load();
    await registry.create('user', { name: 'vanishing', description: 'd' }, 'Body\n');
    await rm(join(temp.layout.dirs.user, 'vanishing.md'));
    await expectError(registry.update('vanishing', { color: 'red' }), 'not-found', 404);
    expect(registry.get('vanishing')).toBeUndefined();
  });

  it('clears fields with null, [] and {} through update', async () => {
    const registry = await temp.load();
    await registry.create(
      'project',
      {
        name: 'clear',
        description: 'd',
        color: 'red',
        skills: ['a'],
        hooks: { Stop: [{ command: 'x' }] },
      },
      'Body\n',
    );
    const { loaded: cleared } = await registry.update('clear', {
      color: null,
      skills: [],
      hooks: {},
    });
    expect(cleared.definition).toMatchObject({ color: '#31AEE4', skills: [], hooks: {} });
    expect(await readFile(cleared.filePath, 'utf8')).toBe(
      '---\nname: clear\ndescription: d\n---\nBody\n',
    );
  });
});

describe('registry: revisions', () => {
  it('keeps every previous version, lists newest first, and restores one', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const registry = await temp.load({ now: () => clock });
    await registry.create('project', { name: 'rev', description: 'v1' }, 'Body\n');
    const v1 = await readFile(join(temp.layout.dirs.project, 'rev.md'), 'utf8');
    await registry.update('rev', { description: 'v2' });
    clock += 1000;
    await registry.update('rev', { description: 'v3' });
    const revisions = await registry.revisions('rev');
    expect(revisions).toHaveLength(2);
    expect(revisions[0]!.id > revisions[1]!.id).toBe(true);
    expect(revisions[1]!.contentHash).toBe(sha256(v1));
    expect(revisions[0]!).toMatchObject({
      name: 'rev',
      level: 'project',
      createdAt: '2026-01-01T00:00:01.000Z',
    });
    expect(revisions[0]!.id).toMatch(/^20260101T000001000Z-[0-9a-f]{8}$/);
    const revisionDir = join(temp.layout.config.dataDir, 'revisions', 'project', 'rev');
    expect((await readdir(revisionDir)).sort()).toEqual(revisions.map((r) => `${r.id}.md`).sort());

    const restored = await registry.restore('rev', revisions[1]!.id);
    expect(restored.definition.description).toBe('v1');
    expect(await readFile(join(temp.layout.dirs.project, 'rev.md'), 'utf8')).toBe(v1);
    const after = await registry.revisions('rev');
    expect(after).toHaveLength(3);
    expect((await registry.restore('rev', after[0]!.id)).definition.description).toBe('v3');
    await expectError(registry.restore('rev', '20260101T000000000Z-00000000'), 'not-found', 404);
    await expectError(registry.restore('rev', '../../x'), 'not-found', 404);
  });

  it('keeps the last version restorable after a delete', async () => {
    const registry = await temp.load();
    await registry.create('user', { name: 'gone', description: 'Soon gone' }, 'Body\n');
    const content = await readFile(join(temp.layout.dirs.user, 'gone.md'), 'utf8');
    await registry.delete('gone');
    expect(registry.get('gone')).toBeUndefined();
    const revisions = await registry.revisions('gone');
    expect(revisions).toHaveLength(1);
    expect(revisions[0]!.level).toBe('user');
    const restored = await registry.restore('gone', revisions[0]!.id);
    expect(restored.level).toBe('user');
    expect(await readFile(join(temp.layout.dirs.user, 'gone.md'), 'utf8')).toBe(content);
  });

  it('records a hand edit as the previous version of the next save', async () => {
    const registry = await temp.load();
    await registry.create('project', { name: 'hand', description: 'v1' }, 'Body\n');
    const path = join(temp.layout.dirs.project, 'hand.md');
    const handEdited = (await readFile(path, 'utf8')).replace('Body', 'Hand-edited body');
    await writeFile(path, handEdited);
    await registry.reload();
    await registry.update('hand', { description: 'v2' });
    const [latest] = await registry.revisions('hand');
    expect(latest?.contentHash).toBe(sha256(handEdited));
    await rm(path);
  });
});
