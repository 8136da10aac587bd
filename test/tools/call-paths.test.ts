import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalCallPaths } from '../../src/tools/call-paths.js';
import { decide } from '../../src/policy/decide.js';
import {
  BASH_TOOL_SCHEMA,
  FILE_SYSTEM_TOOL_SCHEMAS,
} from '../../src/shared/tools/workspace-tool-schemas.js';
import type { ToolSchema } from '../../src/shared/tools/tool-contract.js';

let base: string;
let workspace: string;
let outside: string;

function schema(name: string): ToolSchema {
  const found = FILE_SYSTEM_TOOL_SCHEMAS.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(name);
  return found;
}

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'deputy-cp-')));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(workspace, 'src'), { recursive: true });
  await fs.mkdir(outside);
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe('canonicalCallPaths', () => {
  it('resolves relative paths against the workspace, including ones that do not exist', () => {
    expect(
      canonicalCallPaths(workspace, schema('write'), { path: 'src/../new/a.ts', content: '' }),
    ).toEqual([path.join(workspace, 'new/a.ts')]);
  });

  it('returns paths outside the workspace instead of throwing', () => {
    expect(canonicalCallPaths(workspace, schema('read'), { path: '/etc/passwd' })).toEqual([
      '/etc/passwd',
    ]);
    expect(canonicalCallPaths(workspace, schema('read'), { path: '../outside/x' })).toEqual([
      path.join(outside, 'x'),
    ]);
  });

  it('follows symlinks, so a link out of the workspace is seen where it points', async () => {
    await fs.symlink(outside, path.join(workspace, 'out'));
    const paths = canonicalCallPaths(workspace, schema('write'), {
      path: 'out/new/file.txt',
      content: '',
    });
    expect(paths).toEqual([path.join(outside, 'new/file.txt')]);
    const verdict = decide(
      {
        approvalMode: 'auto-edit',
        workspaceRoot: workspace,
        writableRoots: [workspace],
        unattended: 'ask',
      },
      { toolName: 'write', toolClass: 'write', paths },
    );
    expect(verdict.kind).toBe('ask');
  });

  it('skips absent or non-string path arguments; bash has none', () => {
    expect(canonicalCallPaths(workspace, schema('glob'), { pattern: '**/*' })).toEqual([]);
    expect(canonicalCallPaths(workspace, schema('grep'), { pattern: 'x', path: 42 })).toEqual([]);
    expect(canonicalCallPaths(workspace, BASH_TOOL_SCHEMA, { command: 'cat /etc/passwd' })).toEqual(
      [],
    );
  });

  it('does not throw on null bytes or symlink loops', async () => {
    await fs.symlink('loop-b', path.join(workspace, 'loop-a'));
    await fs.symlink('loop-a', path.join(workspace, 'loop-b'));
    expect(canonicalCallPaths(workspace, schema('read'), { path: 'src/a\0.ts' })).toEqual([
      path.join(workspace, 'src/a'),
    ]);
    expect(canonicalCallPaths(workspace, schema('read'), { path: 'loop-a/x' })).toEqual([
      path.join(workspace, 'loop-a/x'),
    ]);
  });
});
