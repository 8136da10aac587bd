import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realpathLenient } from '../../src/paths/realpath-lenient.js';
import { ToolError } from '../../src/tools/tool.js';
import { isInside } from '../../src/shared/path-containment.js';
import { resolveInWorkspace, toWorkspaceRelative } from '../../src/tools/workspace-path.js';

let base: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'deputy-wp-')));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(workspace, 'src'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(workspace, 'src', 'a.ts'), 'a');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

function refusal(userPath: string, options = {}): string {
  try {
    resolveInWorkspace(workspace, userPath, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error(`expected '${userPath}' to be refused`);
}

describe('resolveInWorkspace', () => {
  it('resolves relative, dotted and absolute paths inside the workspace', () => {
    expect(resolveInWorkspace(workspace, 'src/a.ts')).toBe(path.join(workspace, 'src/a.ts'));
    expect(resolveInWorkspace(workspace, './src/../src/a.ts')).toBe(
      path.join(workspace, 'src/a.ts'),
    );
    expect(resolveInWorkspace(workspace, path.join(workspace, 'src'))).toBe(
      path.join(workspace, 'src'),
    );
    expect(resolveInWorkspace(workspace, '.')).toBe(workspace);
    expect(resolveInWorkspace(workspace, '')).toBe(workspace);
  });

  it('accepts a file that does not exist yet, under directories that do not either', () => {
    expect(resolveInWorkspace(workspace, 'new/dir/file.txt')).toBe(
      path.join(workspace, 'new/dir/file.txt'),
    );
  });

  it('refuses a missing path when it must exist', () => {
    expect(refusal('nope.txt', { mustExist: true })).toBe("path 'nope.txt' does not exist");
  });

  it('refuses .. escapes, naming the path', () => {
    expect(refusal('../outside/secret.txt')).toMatch(
      /^path '\.\.\/outside\/secret\.txt' escapes the workspace/,
    );
    expect(refusal('src/../../x')).toMatch(/escapes the workspace/);
  });

  it('refuses absolute paths outside the workspace', () => {
    expect(refusal('/etc/passwd')).toMatch(/^path '\/etc\/passwd' is outside the workspace/);
    // A sibling sharing the workspace's name as a prefix is not inside it.
    expect(refusal(`${workspace}-other/x`)).toMatch(/is outside the workspace/);
  });

  it('refuses null bytes', () => {
    expect(refusal('src/a.ts\0.png')).toMatch(/contains a null byte/);
  });

  it('refuses a symlinked file that points out', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'link.txt'));
    expect(refusal('link.txt')).toBe(
      "path 'link.txt' leads outside the workspace through a symbolic link",
    );
  });

  it('refuses a new file under a symlinked directory that points out', async () => {
    await fs.symlink(outside, path.join(workspace, 'out'));
    expect(refusal('out/new/file.txt')).toMatch(/leads outside the workspace/);
  });

  it('refuses a dangling symlink whose target is outside (writing would create it)', async () => {
    await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(workspace, 'dangling'));
    expect(refusal('dangling')).toMatch(/leads outside the workspace/);
  });

  it('follows symlinks that stay inside the workspace to their real path', async () => {
    await fs.symlink(path.join(workspace, 'src'), path.join(workspace, 'alias'));
    expect(resolveInWorkspace(workspace, 'alias/a.ts')).toBe(path.join(workspace, 'src/a.ts'));
    expect(resolveInWorkspace(workspace, 'alias/new.ts')).toBe(path.join(workspace, 'src/new.ts'));
  });

  it('refuses a symlink loop with a clear message', async () => {
    await fs.symlink('loop-b', path.join(workspace, 'loop-a'));
    await fs.symlink('loop-a', path.join(workspace, 'loop-b'));
    expect(refusal('loop-a/x')).toMatch(/^path 'loop-a\/x' cannot be resolved/);
  });
});

describe('helpers', () => {
  it('realpathLenient resolves the existing prefix and keeps the missing tail', async () => {
    await fs.symlink(outside, path.join(workspace, 'out'));
    expect(realpathLenient(path.join(workspace, 'out/a/b.txt'))).toBe(
      path.join(outside, 'a/b.txt'),
    );
  });

  it('isInside treats ..foo as inside and ../foo as outside', () => {
    expect(isInside('/w', '/w')).toBe(true);
    expect(isInside('/w', '/w/..foo')).toBe(true);
    expect(isInside('/w', '/foo')).toBe(false);
    expect(isInside('/w', '/w2')).toBe(false);
  });

  it('toWorkspaceRelative shows the root as .', () => {
    expect(toWorkspaceRelative('/w', '/w')).toBe('.');
    expect(toWorkspaceRelative('/w', '/w/src/a.ts')).toBe('src/a.ts');
  });
});
