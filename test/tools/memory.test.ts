import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryTools, readResidentMemory } from '../../src/tools/memory.js';
import type { ToolContext, ToolImplementation } from '../../src/tools/tool.js';

let root: string;
let directory: string;
let tools: Map<string, ToolImplementation>;
const context = {} as ToolContext;
const NOW = new Date('2026-11-30T09:30:00.000Z');

const run = (name: string, args: Record<string, unknown>): Promise<string> => {
  const tool = tools.get(name);
  if (tool === undefined) throw new Error(`no ${name}`);
  return tool.run(args, context);
};

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-memory-')));
  directory = join(root, 'data', 'memory', 'agents', 'helper');
  tools = new Map(
    createMemoryTools({ mode: 'private', directory }, { now: () => NOW }).map((tool) => [
      tool.schema.name,
      tool,
    ]),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('memory tools', () => {
  it('schemas have no scope, directory or path parameter', () => {
    for (const tool of tools.values()) {
      const properties = Object.keys((tool.schema.inputSchema.properties ?? {}) as object);
      expect(properties.filter((name) => !['name', 'content', 'query'].includes(name))).toEqual([]);
      expect(tool.schema.inputSchema.additionalProperties).toBe(false);
    }
  });

  it('memory_write appends to the daily log by default, or to a resident file', async () => {
    expect(await run('memory_write', { content: 'learned A' })).toContain(
      'Saved to daily/2026-11-30.md',
    );
    await run('memory_write', { content: 'learned B\n\n' });
    await run('memory_write', { name: 'prefs.md', content: 'likes tea' });
    await run('memory_write', { name: 'prefs', content: 'dislikes coffee' });
    expect(readFileSync(join(directory, 'daily', '2026-11-30.md'), 'utf8')).toBe(
      '### 2026-11-30T09:30:00.000Z\n\nlearned A\n\n### 2026-11-30T09:30:00.000Z\n\nlearned B\n\n',
    );
    expect(readFileSync(join(directory, 'prefs.md'), 'utf8')).toContain('likes tea\n\n### ');
    expect(
      await run('memory_read', { name: 'PREFS' }).catch((error: Error) => error.message),
    ).toContain('no memory file PREFS.md');
    expect(await run('memory_read', { name: 'prefs' })).toContain('dislikes coffee');
    expect(await run('memory_read', {})).toBe(
      'Resident files: prefs.md. Daily logs (search them with memory_search): daily/2026-11-30.md.',
    );
  });

  it('refuses hostile names and writes nothing outside its directory', async () => {
    const hostile = [
      '../escape',
      '/etc/passwd',
      'a/b',
      '..',
      '.hidden',
      'a\0b',
      'x'.repeat(101),
      'daily/2020-01-01',
      '',
      'a b',
      'C:\\x',
    ];
    for (const name of hostile) {
      await expect(run('memory_write', { name, content: 'x' })).rejects.toThrow(
        /refused|non-empty/,
      );
      await expect(run('memory_read', { name: name === '' ? '..' : name })).rejects.toThrow(
        /refused|non-empty/,
      );
    }
    // Forged scope arguments have nowhere to go: the directory is fixed in the closure.
    await run('memory_write', {
      content: 'kept',
      scope: 'global',
      directory: join(root, 'elsewhere'),
    });
    expect(readdirSync(root)).toEqual(['data']);
    expect(readdirSync(join(root, 'data', 'memory', 'agents'))).toEqual(['helper']);
    expect(readdirSync(directory).sort()).toEqual(['daily']);
  });

  it('does not follow a symlink planted inside the memory directory', async () => {
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(root, 'outside.md'), 'original\n');
    symlinkSync(join(root, 'outside.md'), join(directory, 'evil.md'));
    await expect(run('memory_write', { name: 'evil', content: 'pwned' })).rejects.toThrow(
      'symbolic link',
    );
    await expect(run('memory_read', { name: 'evil' })).rejects.toThrow('symbolic link');
    expect(readFileSync(join(root, 'outside.md'), 'utf8')).toBe('original\n');
  });

  it('memory_search finds lines in resident files and daily logs', async () => {
    await run('memory_write', { name: 'prefs', content: 'The user prefers tables over prose' });
    await run('memory_write', { content: 'Tables broke in the PDF export' });
    expect(await run('memory_search', { query: 'tables prose' })).toBe(
      'prefs.md:3: The user prefers tables over prose\ndaily/2026-11-30.md:3: Tables broke in the PDF export',
    );
    expect(await run('memory_search', { query: 'nothing-like-this' })).toBe(
      'No hits in 2 memory files.',
    );
  });

  it('warns when a resident file grows past its prompt budget', async () => {
    const result = await run('memory_write', { name: 'big', content: 'y'.repeat(5000) });
    expect(result).toContain('over the 4 KiB resident budget');
  });

  it('appends from two processes are serialized: 1000 entries, none lost or interleaved', async () => {
    const script = fileURLToPath(
      new URL('../fixtures/capabilities/memory-writer.ts', import.meta.url),
    );
    const writers = ['A', 'B'].map(
      (id) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', script, directory, id, '500'], {
            stdio: ['ignore', 'ignore', 'pipe'],
          });
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.on('error', reject);
          child.on('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`writer ${id} exited ${code}: ${stderr}`)),
          );
        }),
    );
    await Promise.all(writers);
    const text = readFileSync(join(directory, 'race.md'), 'utf8');
    const entries = text.split(/^### /m).filter((entry) => entry !== '');
    expect(entries).toHaveLength(1000);
    const next = { A: 0, B: 0 };
    const filler = 'x'.repeat(2000);
    for (const entry of entries) {
      const match = /^\S+\n\n([AB]) entry (\d+) begins\n(x+)\n\1 entry \2 ends\n\n$/.exec(entry);
      expect(match, entry.slice(0, 120)).not.toBeNull();
      const [, writer, index, middle] = match as unknown as [string, 'A' | 'B', string, string];
      expect(middle).toBe(filler);
      expect(Number(index)).toBe(next[writer]); // each writer's entries in its own order
      next[writer] += 1;
    }
    expect(next).toEqual({ A: 500, B: 500 });
    expect(existsSync(join(directory, '.memory.lock'))).toBe(false);
  }, 120_000);
});

describe('readResidentMemory', () => {
  it('injects root *.md files within 4 KiB each and 12 KiB in all; over budget is dropped whole, with a note', async () => {
    mkdirSync(join(directory, 'daily'), { recursive: true });
    const sizes: Record<string, number> = {
      'a.md': 100,
      'big.md': 5000,
      'c.md': 4000,
      'd.md': 4000,
      'e.md': 4000,
      'f.md': 300,
    };
    for (const [name, size] of Object.entries(sizes))
      writeFileSync(join(directory, name), 'z'.repeat(size));
    writeFileSync(join(directory, 'daily', '2026-11-30.md'), 'daily only\n');
    writeFileSync(join(directory, 'notes.txt'), 'not markdown');
    const resident = await readResidentMemory(directory);
    expect(resident.files.map((file) => file.name)).toEqual(['a.md', 'c.md', 'd.md', 'e.md']);
    expect(resident.files[0]?.content).toBe('z'.repeat(100));
    expect(resident.notes).toEqual([
      'big.md (5000 bytes) is over the 4 KiB per-file budget and was not loaded; read it with memory_read.',
      'f.md (300 bytes) would exceed the 12 KiB budget of resident memory and was not loaded; read it with memory_read.',
    ]);
  });

  it('an absent directory is an empty memory', async () => {
    expect(await readResidentMemory(join(root, 'none'))).toEqual({ files: [], notes: [] });
  });
});
