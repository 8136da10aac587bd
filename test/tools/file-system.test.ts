import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapabilitySnapshot } from '../../src/shared/capability-snapshot.js';
import { FILE_SYSTEM_TOOL_SCHEMAS } from '../../src/shared/tools/workspace-tool-schemas.js';
import { createFileSystemTools, FILE_SYSTEM_LIMITS } from '../../src/tools/file-system.js';
import { limitText } from '../../src/tools/output-limit.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { ToolError } from '../../src/tools/tool.js';
import { deputyRoots } from '../../src/paths/deputy-roots.js';

let base: string;
let workspace: string;
let outside: string;
let context: ToolContext;

const tools = new Map(createFileSystemTools().map((tool) => [tool.schema.name, tool]));

async function run(name: string, args: Record<string, unknown>): Promise<string> {
  const tool = tools.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.run(args, context);
}

async function failure(name: string, args: Record<string, unknown>): Promise<string> {
  try {
    await run(name, args);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error(`expected ${name} to fail`);
}

async function write(relative: string, content: string | Buffer): Promise<void> {
  const file = path.join(workspace, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'deputy-fs-')));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await fs.mkdir(workspace);
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
  context = {
    workspaceRoot: workspace,
    snapshot: {} as CapabilitySnapshot,
    signal: new AbortController().signal,
    heartbeat: () => {},
  };
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe('createFileSystemTools', () => {
  it('implements exactly the FileSystem schemas', () => {
    expect([...tools.keys()]).toEqual(FILE_SYSTEM_TOOL_SCHEMAS.map((schema) => schema.name));
    expect([...tools.keys()]).toEqual(['read', 'write', 'edit', 'glob', 'grep']);
  });
});

describe('read', () => {
  it('returns numbered lines', async () => {
    await write('notes.md', 'alpha\nbeta\ngamma\n');
    expect(await run('read', { path: 'notes.md' })).toBe(
      '     1\talpha\n     2\tbeta\n     3\tgamma',
    );
  });

  it('pages with offset and limit and says where to continue', async () => {
    await write('n.txt', ['1', '2', '3', '4', '5'].join('\n'));
    expect(await run('read', { path: 'n.txt', offset: 2, limit: 2 })).toBe(
      '     2\t2\n     3\t3\n[showed lines 2-3 of 5; use offset=4 to read more]',
    );
    expect(await failure('read', { path: 'n.txt', offset: 9 })).toBe(
      'offset 9 is past the end of n.txt, which has 5 lines',
    );
  });

  it('says when a file is empty', async () => {
    await write('empty.txt', '');
    expect(await run('read', { path: 'empty.txt' })).toBe('[empty.txt is empty]');
  });

  it('cuts very long lines loudly', async () => {
    await write('long.txt', 'x'.repeat(FILE_SYSTEM_LIMITS.readMaxLineChars + 10));
    expect(await run('read', { path: 'long.txt' })).toContain(
      `[line cut: showed ${FILE_SYSTEM_LIMITS.readMaxLineChars} of ${FILE_SYSTEM_LIMITS.readMaxLineChars + 10} characters]`,
    );
  });

  it('refuses directories, binary files and missing files with clear messages', async () => {
    await write('dir/x.txt', 'x');
    await write('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect(await failure('read', { path: 'dir' })).toBe(
      'dir is a directory, not a file; use glob to list its files',
    );
    expect(await failure('read', { path: 'image.png' })).toBe(
      'image.png looks like a binary file; only text files can be read',
    );
    expect(await failure('read', { path: 'missing.txt' })).toBe(
      "path 'missing.txt' does not exist",
    );
  });

  it('refuses files over the size cap', async () => {
    await write('big.txt', 'a'.repeat(FILE_SYSTEM_LIMITS.readMaxBytes + 1));
    expect(await failure('read', { path: 'big.txt' })).toMatch(
      /^big\.txt is 10485761 bytes, over the 10485760 byte limit; use grep/,
    );
  });

  it('refuses .., absolute paths and symlinks out', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'link.txt'));
    expect(await failure('read', { path: '../outside/secret.txt' })).toMatch(
      /escapes the workspace/,
    );
    expect(await failure('read', { path: path.join(outside, 'secret.txt') })).toMatch(
      /is outside the workspace/,
    );
    expect(await failure('read', { path: 'link.txt' })).toMatch(
      /leads outside the workspace through a symbolic link/,
    );
  });

  it('refuses bad arguments', async () => {
    expect(await failure('read', {})).toBe("argument 'path' must be a string");
    expect(await failure('read', { path: 'a', limit: 0 })).toBe(
      "argument 'limit' must be a positive integer",
    );
  });
});

describe('write', () => {
  it('creates a file and its parent directories', async () => {
    expect(await run('write', { path: 'src/deep/new.ts', content: 'export {};\n' })).toBe(
      'Created src/deep/new.ts (11 bytes, 1 line)',
    );
    expect(await fs.readFile(path.join(workspace, 'src/deep/new.ts'), 'utf8')).toBe('export {};\n');
  });

  it('overwrites an existing file', async () => {
    await write('a.txt', 'old');
    expect(await run('write', { path: 'a.txt', content: '' })).toBe(
      'Overwrote a.txt (0 bytes, 0 lines)',
    );
    expect(await fs.readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('');
  });

  it('refuses escapes and creates nothing outside', async () => {
    await fs.symlink(outside, path.join(workspace, 'out'));
    expect(await failure('write', { path: '../outside/x.txt', content: 'x' })).toMatch(
      /escapes the workspace/,
    );
    expect(await failure('write', { path: path.join(outside, 'x.txt'), content: 'x' })).toMatch(
      /is outside the workspace/,
    );
    expect(await failure('write', { path: 'out/new/x.txt', content: 'x' })).toMatch(
      /leads outside the workspace/,
    );
    await fs.symlink(path.join(outside, 'created.txt'), path.join(workspace, 'dangling'));
    expect(await failure('write', { path: 'dangling', content: 'x' })).toMatch(
      /leads outside the workspace/,
    );
    expect((await fs.readdir(outside)).sort()).toEqual(['secret.txt']);
  });

  it('refuses to overwrite a directory', async () => {
    await fs.mkdir(path.join(workspace, 'dir'));
    expect(await failure('write', { path: 'dir', content: 'x' })).toBe(
      'dir is a directory, not a file',
    );
  });
});

describe('edit', () => {
  it('replaces a unique occurrence, keeping $ patterns literal', async () => {
    await write('a.ts', 'const a = 1;\nconst b = 2;\n');
    expect(await run('edit', { path: 'a.ts', old_string: 'b = 2', new_string: "b = '$&'" })).toBe(
      'Replaced 1 occurrence in a.ts',
    );
    expect(await fs.readFile(path.join(workspace, 'a.ts'), 'utf8')).toBe(
      "const a = 1;\nconst b = '$&';\n",
    );
  });

  it('refuses an ambiguous old_string unless replace_all', async () => {
    await write('a.ts', 'x\nx\nx\n');
    expect(await failure('edit', { path: 'a.ts', old_string: 'x', new_string: 'y' })).toBe(
      'old_string occurs 3 times in a.ts; include more surrounding context to make it unique, or set replace_all to replace every occurrence',
    );
    expect(await fs.readFile(path.join(workspace, 'a.ts'), 'utf8')).toBe('x\nx\nx\n');
    expect(
      await run('edit', { path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: true }),
    ).toBe('Replaced 3 occurrences in a.ts');
    expect(await fs.readFile(path.join(workspace, 'a.ts'), 'utf8')).toBe('y\ny\ny\n');
  });

  it('explains a missing, empty or no-op old_string', async () => {
    await write('a.ts', 'hello');
    expect(await failure('edit', { path: 'a.ts', old_string: 'bye', new_string: 'x' })).toMatch(
      /^old_string was not found in a\.ts; it must match the file exactly/,
    );
    expect(await failure('edit', { path: 'a.ts', old_string: '', new_string: 'x' })).toMatch(
      /^old_string is empty/,
    );
    expect(
      await failure('edit', { path: 'a.ts', old_string: 'hello', new_string: 'hello' }),
    ).toMatch(/identical/);
  });

  it('refuses missing files and symlinks out', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'link.txt'));
    expect(await failure('edit', { path: 'nope.ts', old_string: 'a', new_string: 'b' })).toBe(
      "path 'nope.ts' does not exist",
    );
    expect(
      await failure('edit', { path: 'link.txt', old_string: 'TOP', new_string: 'NOT' }),
    ).toMatch(/leads outside the workspace/);
    expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });
});

describe('glob', () => {
  beforeEach(async () => {
    await write('src/b.ts', '');
    await write('src/a.ts', '');
    await write('src/sub/c.ts', '');
    await write('src/readme.md', '');
    await write('.hidden/h.ts', '');
    await write('node_modules/pkg/index.ts', '');
    await write('.git/x.ts', '');
  });

  it('lists sorted workspace-relative files, skipping hidden, node_modules and .git', async () => {
    expect(await run('glob', { pattern: '**/*.ts' })).toBe('src/a.ts\nsrc/b.ts\nsrc/sub/c.ts');
  });

  it('searches under path, still returning workspace-relative paths', async () => {
    expect(await run('glob', { pattern: '*.ts', path: 'src/sub' })).toBe('src/sub/c.ts');
  });

  it('says when nothing matches', async () => {
    expect(await run('glob', { pattern: '*.rs' })).toBe("No files match '*.rs' in .");
  });

  it('refuses absolute and .. patterns and paths out', async () => {
    await fs.symlink(outside, path.join(workspace, 'out'));
    expect(await failure('glob', { pattern: '/etc/*' })).toMatch(
      /^glob pattern '\/etc\/\*' is absolute/,
    );
    expect(await failure('glob', { pattern: '../outside/*' })).toMatch(/contains '\.\.'/);
    expect(await failure('glob', { pattern: 'src/../../*' })).toMatch(/contains '\.\.'/);
    expect(await failure('glob', { pattern: '*', path: '..' })).toMatch(/escapes the workspace/);
    expect(await failure('glob', { pattern: '*', path: 'out' })).toMatch(
      /leads outside the workspace/,
    );
  });

  it('does not follow a symlinked directory out of the workspace', async () => {
    await fs.symlink(outside, path.join(workspace, 'out'));
    expect(await run('glob', { pattern: '**/*.txt' })).toBe(
      "No files match '**/*.txt' in .\n[1 entry skipped: it leads outside the workspace through a symbolic link (out)]",
    );
  });

  it('caps the list with a notice', async () => {
    const count = FILE_SYSTEM_LIMITS.globMaxResults + 5;
    await fs.mkdir(path.join(workspace, 'many'));
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        fs.writeFile(path.join(workspace, 'many', `f${String(i).padStart(5, '0')}.txt`), ''),
      ),
    );
    const result = await run('glob', { pattern: 'many/*.txt' });
    const lines = result.split('\n');
    expect(lines).toHaveLength(FILE_SYSTEM_LIMITS.globMaxResults + 1);
    expect(lines[0]).toBe('many/f00000.txt');
    expect(lines.at(-1)).toBe(
      `[output truncated: showed ${FILE_SYSTEM_LIMITS.globMaxResults} of ${count} matching files; narrow the pattern or path]`,
    );
  });
});

describe('grep', () => {
  beforeEach(async () => {
    await write('src/a.ts', 'import x from "y";\nconst TODO = 1;\n// todo: later\n');
    await write('docs/b.md', 'A todo in docs\nnothing\n');
    await write('bin.dat', Buffer.from('todo\0binary'));
    await write('node_modules/m/index.js', 'todo');
  });

  it('returns path:line: text hits, sorted by file', async () => {
    expect(await run('grep', { pattern: 'todo' })).toBe(
      'docs/b.md:1: A todo in docs\nsrc/a.ts:3: // todo: later',
    );
  });

  it('supports ignore_case, glob, path and fixed strings', async () => {
    expect(await run('grep', { pattern: 'todo', ignore_case: true, glob: '**/*.ts' })).toBe(
      'src/a.ts:2: const TODO = 1;\nsrc/a.ts:3: // todo: later',
    );
    expect(await run('grep', { pattern: 'to.o', path: 'docs' })).toBe(
      'docs/b.md:1: A todo in docs',
    );
    expect(await run('grep', { pattern: 'to.o', fixed_strings: true })).toBe(
      "No matches for 'to.o' in .",
    );
    expect(await run('grep', { pattern: '"y"', fixed_strings: true, path: 'src/a.ts' })).toBe(
      'src/a.ts:1: import x from "y";',
    );
  });

  it('explains an invalid regular expression', async () => {
    expect(await failure('grep', { pattern: '(unclosed' })).toMatch(
      /^invalid regular expression '\(unclosed': .*; set fixed_strings to search for literal text$/,
    );
  });

  it('caps hits and long lines with notices', async () => {
    const long = `match ${'z'.repeat(1000)}`;
    await write('many.txt', `${Array.from({ length: 300 }, () => long).join('\n')}\n`);
    const result = await run('grep', { pattern: '^match', path: 'many.txt' });
    const lines = result.split('\n');
    expect(lines).toHaveLength(FILE_SYSTEM_LIMITS.grepMaxHits + 1);
    expect(lines[0]).toBe(
      `many.txt:1: ${long.slice(0, 400)} [line cut: showed 400 of ${long.length} characters]`,
    );
    expect(lines.at(-1)).toBe(
      `[output truncated: stopped at ${FILE_SYSTEM_LIMITS.grepMaxHits} matching lines; narrow the pattern, path or glob]`,
    );
  });

  it('says how many files were not searched when the read budget runs out', async () => {
    const half = FILE_SYSTEM_LIMITS.grepMaxBytes / 2 + 1;
    await write('big/1.log', 'x'.repeat(half));
    await write('big/2.log', 'x'.repeat(half));
    await write('big/3.log', 'todo');
    expect(await run('grep', { pattern: 'todo', path: 'big' })).toBe(
      '[read budget of 32 MiB reached: 2 of 3 files were not searched]',
    );
  });

  it('never reads outside the workspace', async () => {
    await fs.symlink(outside, path.join(workspace, 'out'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'secret-link.txt'));
    expect(await run('grep', { pattern: 'SECRET' })).toBe(
      "No matches for 'SECRET' in .\n[2 entries skipped: they lead outside the workspace through symbolic links (out, secret-link.txt)]",
    );
    expect(await failure('grep', { pattern: 'SECRET', path: 'secret-link.txt' })).toMatch(
      /leads outside the workspace/,
    );
    expect(await failure('grep', { pattern: 'SECRET', path: '..' })).toMatch(
      /escapes the workspace/,
    );
    expect(await failure('grep', { pattern: 'SECRET', glob: '../**' })).toMatch(/contains '\.\.'/);
  });
});

describe('glob and grep through symbolic links', () => {
  const outsideNote = (links: string[]): string =>
    links.length === 1
      ? `[1 entry skipped: it leads outside the workspace through a symbolic link (${links[0]})]`
      : `[${links.length} entries skipped: they lead outside the workspace through symbolic links (${links.join(', ')})]`;

  beforeEach(async () => {
    await fs.mkdir(path.join(outside, 'deep'));
    await fs.writeFile(path.join(outside, 'deep', 'more.txt'), 'MORE SECRET\n');
    await write('real/ok.txt', 'TOP inside\n');
    await fs.mkdir(path.join(workspace, 'notes'));
    await fs.mkdir(path.join(workspace, 'nested', 'inner'), { recursive: true });
    // Outward: a directory link, a file link one level down, a directory link two levels down.
    await fs.symlink(outside, path.join(workspace, 'link-out'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'notes', 'secret.txt'));
    await fs.symlink(path.join(outside, 'deep'), path.join(workspace, 'nested/inner/deep-out'));
    // Inward: a relative directory link and an absolute file link.
    await fs.symlink('real', path.join(workspace, 'in-dir'));
    await fs.symlink(path.join(workspace, 'real/ok.txt'), path.join(workspace, 'in-file.txt'));
  });

  it('glob lists nothing behind an outward directory link, on the pattern path too', async () => {
    expect(await run('glob', { pattern: 'link-out/*' })).toBe(
      `No files match 'link-out/*' in .\n${outsideNote(['link-out'])}`,
    );
    expect(await run('glob', { pattern: 'link-out/secret.txt' })).toBe(
      `No files match 'link-out/secret.txt' in .\n${outsideNote(['link-out'])}`,
    );
    expect(await run('glob', { pattern: 'nested/*/deep-out/*.txt' })).toBe(
      `No files match 'nested/*/deep-out/*.txt' in .\n${outsideNote(['nested/inner/deep-out'])}`,
    );
    expect(await failure('glob', { pattern: '**/*.txt', path: 'nested/inner/deep-out' })).toMatch(
      /leads outside the workspace through a symbolic link/,
    );
  });

  it('glob follows inward links, skips outward file and directory links and names them', async () => {
    const result = await run('glob', { pattern: '**/*.txt' });
    expect(result).toBe(
      [
        'in-dir/ok.txt',
        'in-file.txt',
        'real/ok.txt',
        outsideNote(['link-out', 'nested/inner/deep-out', 'notes/secret.txt']),
      ].join('\n'),
    );
    expect(await run('glob', { pattern: 'notes/*.txt' })).toBe(
      `No files match 'notes/*.txt' in .\n${outsideNote(['notes/secret.txt'])}`,
    );
    expect(await run('glob', { pattern: 'in-dir/*.txt' })).toBe('in-dir/ok.txt');
  });

  it('grep reads nothing behind an outward link and says what it skipped', async () => {
    expect(await run('grep', { pattern: 'SECRET' })).toBe(
      `No matches for 'SECRET' in .\n${outsideNote(['link-out', 'nested/inner/deep-out', 'notes/secret.txt'])}`,
    );
    expect(await run('grep', { pattern: 'SECRET', glob: 'link-out/**' })).toBe(
      `No matches for 'SECRET' in .\n${outsideNote(['link-out'])}`,
    );
    expect(await run('grep', { pattern: 'SECRET', path: 'nested' })).toBe(
      `No matches for 'SECRET' in nested\n${outsideNote(['nested/inner/deep-out'])}`,
    );
    expect(await failure('grep', { pattern: 'SECRET', path: 'notes/secret.txt' })).toMatch(
      /leads outside the workspace through a symbolic link/,
    );
  });

  it('grep follows inward links', async () => {
    expect(await run('grep', { pattern: 'inside', path: 'in-dir' })).toBe(
      'in-dir/ok.txt:1: TOP inside',
    );
    expect(await run('grep', { pattern: 'inside', glob: '*/*.txt' })).toBe(
      `in-dir/ok.txt:1: TOP inside\nreal/ok.txt:1: TOP inside\n${outsideNote(['link-out', 'notes/secret.txt'])}`,
    );
    expect(await run('grep', { pattern: 'inside', glob: 'in-*' })).toBe(
      'in-file.txt:1: TOP inside',
    );
  });

  it('names at most ten skipped links and counts the rest', async () => {
    await fs.mkdir(path.join(workspace, 'many'));
    for (let i = 0; i < 12; i += 1) {
      await fs.symlink(
        path.join(outside, 'secret.txt'),
        path.join(workspace, 'many', `s${String(i).padStart(2, '0')}.txt`),
      );
    }
    const names = Array.from({ length: 10 }, (_, i) => `many/s${String(i).padStart(2, '0')}.txt`);
    expect(await run('glob', { pattern: 'many/*' })).toBe(
      `No files match 'many/*' in .\n[12 entries skipped: they lead outside the workspace through symbolic links (${names.join(', ')}, and 2 more)]`,
    );
  });

  it('a link back to a folder above it is walked once and reported, not followed forever', async () => {
    await fs.symlink('..', path.join(workspace, 'real', 'up'));
    const result = await run('glob', { pattern: '**/ok.txt' });
    expect(result.split('\n')).toEqual([
      'in-dir/ok.txt',
      'real/ok.txt',
      outsideNote(['link-out', 'nested/inner/deep-out']),
      '[2 entries skipped: they are symbolic links to a folder that holds them (in-dir/up, real/up)]',
    ]);
  });

  it("skips deputy's configuration file and data directory when given them", async () => {
    await write('.subagents/config.yaml', 'token: SECRET-TOKEN\n');
    await write('.deputy/memory/notes.md', 'SECRET-TOKEN in memory\n');
    await fs.symlink('.subagents/config.yaml', path.join(workspace, 'config-link.yaml'));
    const hidden = createFileSystemTools({
      hiddenRoots: deputyRoots({
        workspace,
        dataDir: path.join(workspace, '.deputy'),
        userDir: path.join(base, 'user'),
        projectRoot: path.join(base, 'deputy'),
        skills: { pluginDirs: [] },
      }).hiddenRoots,
    });
    const runHidden = (name: string, args: Record<string, unknown>): Promise<string> => {
      const tool = hidden.find((candidate) => candidate.schema.name === name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      return tool.run(args, context);
    };
    const note = (names: string[]): string =>
      `[${names.length} ${names.length === 1 ? 'entry' : 'entries'} skipped: deputy's configuration file and data directory are not open to agents (${names.join(', ')})]`;
    expect(await runHidden('glob', { pattern: '*.yaml' })).toBe(
      `No files match '*.yaml' in .\n${note(['config-link.yaml'])}`,
    );
    expect(await runHidden('glob', { pattern: '.subagents/*' })).toBe(
      `No files match '.subagents/*' in .\n${note(['.subagents/config.yaml'])}`,
    );
    expect(await runHidden('glob', { pattern: '.deputy/**' })).toBe(
      `No files match '.deputy/**' in .\n${note(['.deputy'])}`,
    );
    expect(
      await runHidden('grep', { pattern: 'SECRET-TOKEN', glob: '{.deputy,.subagents}/**' }),
    ).toBe(`No matches for 'SECRET-TOKEN' in .\n${note(['.deputy', '.subagents/config.yaml'])}`);
    await expect(
      runHidden('grep', { pattern: 'SECRET-TOKEN', path: '.subagents/config.yaml' }),
    ).rejects.toThrow(
      "path '.subagents/config.yaml' is not open to agents: deputy's configuration file and data directory are off limits",
    );
    await expect(runHidden('glob', { pattern: '*', path: '.deputy/memory' })).rejects.toThrow(
      /^path '\.deputy\/memory' is not open to agents/,
    );
    // Without the hook the same files are ordinary workspace files.
    expect(await run('glob', { pattern: '.subagents/*' })).toBe('.subagents/config.yaml');
  });
});

describe('limitText', () => {
  it('keeps short text and cuts long text with a loud notice', () => {
    expect(limitText('short', 10)).toBe('short');
    expect(limitText('abcdefghij', 4)).toBe('abcd\n[output truncated: showed 4 of 10 characters]');
  });

  it('does not split a surrogate pair', () => {
    expect(limitText('ab😀cd', 3)).toBe('ab\n[output truncated: showed 2 of 6 characters]');
  });
});
