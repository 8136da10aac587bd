/**
 * Protected and hidden roots on a real tree in os.tmpdir() (no file system mocks): where they
 * are, that links into them count, and that decide() sees calls through them as the worker
 * hands them over (canonicalCallPaths).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deputyRoots, isHiddenFromAgents } from '../../src/paths/deputy-roots.js';
import { decide } from '../../src/policy/decide.js';
import type { ApprovalMode, PolicyInput } from '../../src/shared/policy-contract.js';
import { FILE_SYSTEM_TOOL_SCHEMAS } from '../../src/shared/tools/workspace-tool-schemas.js';
import { canonicalCallPaths } from '../../src/tools/call-paths.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deputy-roots-')));
const ws = path.join(base, 'ws');
const dotfiles = path.join(base, 'dotfiles'); // where the workspace's .claude really lives
const userDir = path.join(base, 'home/.config/deputy');
const dataDir = path.join(ws, '.deputy');
const projectRoot = path.join(base, 'deputy-package');

beforeAll(() => {
  for (const directory of ['ws/src', 'ws/.subagents/agents', 'ws/.git/hooks', 'dotfiles']) {
    fs.mkdirSync(path.join(base, directory), { recursive: true });
  }
  fs.mkdirSync(path.join(dataDir, 'memory'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.subagents/config.yaml'), 'mcp: {}\n');
  fs.writeFileSync(path.join(dataDir, 'memory/notes.md'), 'n');
  fs.symlinkSync(dotfiles, path.join(ws, '.claude')); // the definition folder is itself a link
  fs.symlinkSync(path.join(ws, '.subagents/agents'), path.join(ws, 'src/agents-link'));
  fs.symlinkSync(path.join(ws, '.subagents/config.yaml'), path.join(ws, 'settings.yaml'));
  fs.symlinkSync(dataDir, path.join(ws, 'src/state'));
  fs.symlinkSync('loop-b', path.join(ws, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(ws, 'loop-b'));
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

const roots = () =>
  deputyRoots(
    { workspace: ws, dataDir, userDir, projectRoot, skills: { pluginDirs: [] } },
    { homeDir: path.join(base, 'home'), env: {} },
  );

function policy(approvalMode: ApprovalMode): PolicyInput {
  return { approvalMode, workspaceRoot: ws, writableRoots: [ws], unattended: 'ask', ...roots() };
}

/** decide() on a call as the worker hands it over: its paths resolved by canonicalCallPaths. */
function verdictOf(mode: ApprovalMode, tool: string, args: Record<string, unknown>) {
  const schema = FILE_SYSTEM_TOOL_SCHEMAS.find((candidate) => candidate.name === tool)!;
  return decide(policy(mode), {
    toolName: tool,
    toolClass: schema.toolClass,
    paths: canonicalCallPaths(ws, schema, args),
  });
}

describe('deputyRoots', () => {
  it('names the definition folders, the user level, .git and the data directory', () => {
    const { protectedRoots, hiddenRoots } = roots();
    expect(protectedRoots).toEqual(
      expect.arrayContaining([
        { kind: 'definitions', path: path.join(ws, '.subagents') },
        { kind: 'definitions', path: path.join(ws, '.qwen') },
        { kind: 'definitions', path: userDir },
        { kind: 'git', path: path.join(ws, '.git') },
        { kind: 'data', path: dataDir },
      ]),
    );
    expect(hiddenRoots).toEqual([
      path.join(ws, '.subagents/config.yaml'),
      path.join(base, 'home', '.config', 'temporalio'),
      dataDir,
    ]);
  });

  it('gives a linked root where it really is, and as written', () => {
    expect(roots().protectedRoots).toEqual(
      expect.arrayContaining([
        { kind: 'definitions', path: dotfiles },
        { kind: 'definitions', path: path.join(ws, '.claude') },
      ]),
    );
  });
});

describe('decide() on resolved call paths', () => {
  it('a write through a link into .subagents/agents asks, also in auto-edit', () => {
    const verdict = verdictOf('auto-edit', 'write', { path: 'src/agents-link/root.md' });
    expect(verdict).toEqual({
      kind: 'ask',
      reason:
        "'write' changes an agent definition or deputy configuration (.subagents/agents/root.md); protected paths need approval under approvalMode auto-edit",
    });
  });

  it('a write into a definition folder that is itself a link asks', () => {
    expect(verdictOf('auto-edit', 'write', { path: '.claude/agents/x.md' })).toMatchObject({
      kind: 'ask',
      reason: expect.stringContaining(`deputy configuration (${dotfiles}/agents/x.md)`),
    });
  });

  it('`..` that lands in .git asks', () => {
    expect(
      verdictOf('auto-in-workspace', 'edit', { path: 'src/../.git/hooks/pre-commit' }),
    ).toMatchObject({ kind: 'ask', reason: expect.stringContaining('(.git/hooks/pre-commit)') });
  });

  it('a read through a link to the configuration file or into the data directory is denied', () => {
    for (const args of [{ path: 'settings.yaml' }, { path: 'src/state/memory/notes.md' }]) {
      expect(verdictOf('full-access', 'read', args)).toMatchObject({ kind: 'deny' });
    }
    expect(verdictOf('full-access', 'grep', { pattern: 'x', path: 'src/state' })).toMatchObject({
      kind: 'deny',
    });
  });
});

describe('isHiddenFromAgents (for glob and grep)', () => {
  it('hides the configuration file and the data directory, through links too', () => {
    const hidden = roots().hiddenRoots;
    expect(isHiddenFromAgents(hidden, path.join(ws, '.subagents/config.yaml'))).toBe(true);
    expect(isHiddenFromAgents(hidden, path.join(ws, 'settings.yaml'))).toBe(true);
    expect(isHiddenFromAgents(hidden, path.join(dataDir, 'memory/notes.md'))).toBe(true);
    expect(isHiddenFromAgents(hidden, path.join(ws, 'src/state/memory/notes.md'))).toBe(true);
    expect(isHiddenFromAgents(hidden, path.join(ws, 'src/../.deputy/x'))).toBe(true);
  });

  it('leaves everything else, definitions included, visible', () => {
    const hidden = roots().hiddenRoots;
    expect(isHiddenFromAgents(hidden, ws)).toBe(false);
    expect(isHiddenFromAgents(hidden, path.join(ws, '.subagents/agents/a.md'))).toBe(false);
    expect(isHiddenFromAgents(hidden, path.join(ws, 'src/agents-link'))).toBe(false);
    expect(isHiddenFromAgents(hidden, path.join(ws, '.deputy-notes.md'))).toBe(false);
  });

  it('fails closed on what it cannot resolve or judge', () => {
    const hidden = roots().hiddenRoots;
    expect(isHiddenFromAgents(hidden, path.join(ws, 'loop-a'))).toBe(true);
    expect(isHiddenFromAgents(hidden, 'src/a.ts')).toBe(true);
  });
});
