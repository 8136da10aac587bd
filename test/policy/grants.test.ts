/**
 * Grants: the scope an approval for the rest of a delegation records, which later
 * calls it covers, and decide() turning only a covered `ask` into `allow`.
 */
import { describe, expect, it } from 'vitest';
import { decide, type PolicyCall } from '../../src/policy/decide.js';
import {
  commandPrefixPattern,
  grantCovering,
  grantScopeFor,
  type GrantCall,
} from '../../src/policy/grants.js';
import type { Grant, GrantScope, PolicyInput } from '../../src/shared/policy-contract.js';

const WS = '/work/ws';

function grantOf(tool: string, scope: GrantScope, n = 1): Grant {
  return { n, tool, scope, cardId: `d-1.${n}`, grantedBy: 'ann', grantedAt: 'now' };
}

function scopeOf(call: GrantCall): GrantScope {
  const scope = grantScopeFor(call);
  if (typeof scope === 'string') throw new Error(scope);
  return scope;
}

const bash = (commands: string[][], refused: string[] = []): GrantCall => ({
  tool: 'bash',
  toolClass: 'exec',
  paths: [],
  command: { commands, refused },
});

describe('grant scopes', () => {
  it('a file tool: exactly the paths the approved call touched', () => {
    const scope = scopeOf({ tool: 'write', toolClass: 'write', paths: [`${WS}/note.txt`] });
    expect(scope).toEqual({ kind: 'paths', paths: [`${WS}/note.txt`] });
    const grants = [grantOf('write', scope)];
    const write = (paths: string[], tool = 'write'): GrantCall => ({
      tool,
      toolClass: 'write',
      paths,
    });
    expect(grantCovering(grants, write([`${WS}/note.txt`]))?.n).toBe(1);
    expect(grantCovering(grants, write([`${WS}/other.txt`]))).toBeUndefined();
    expect(grantCovering(grants, write([`${WS}/note.txt`, `${WS}/other.txt`]))).toBeUndefined();
    expect(grantCovering(grants, write([]))).toBeUndefined();
    // Another tool on the same file is not covered: a grant is for one tool.
    expect(grantCovering(grants, write([`${WS}/note.txt`], 'edit'))).toBeUndefined();
  });

  it('bash: a Bash(<prefix>:*) pattern per simple command, as Claude Code writes them', () => {
    expect(commandPrefixPattern(['git', 'status', '-s'])).toBe('Bash(git status:*)');
    expect(commandPrefixPattern(['npm', 'run', 'build'])).toBe('Bash(npm run:*)');
    expect(commandPrefixPattern(['rm', 'note.txt'])).toBe('Bash(rm:*)');
    expect(commandPrefixPattern(['ls', '-la'])).toBe('Bash(ls:*)');
    expect(
      scopeOf(
        bash([
          ['git', 'status'],
          ['git', 'diff', '--stat'],
        ]),
      ),
    ).toEqual({ kind: 'commands', patterns: ['Bash(git status:*)', 'Bash(git diff:*)'] });
    const grants = [grantOf('bash', scopeOf(bash([['git', 'status']])))];
    expect(grantCovering(grants, bash([['git', 'status', '--short']]))?.n).toBe(1);
    expect(grantCovering(grants, bash([['git', 'status']]))?.n).toBe(1);
    expect(grantCovering(grants, bash([['git', 'push']]))).toBeUndefined();
    // A compound command is covered only when every part is.
    expect(
      grantCovering(
        grants,
        bash([
          ['git', 'status'],
          ['rm', '-rf', '/'],
        ]),
      ),
    ).toBeUndefined();
    // What the analysis refuses (a redirection, a substitution) is never covered.
    expect(
      grantCovering(grants, bash([['git', 'status']], ['output redirection (>)'])),
    ).toBeUndefined();
    expect(grantCovering(grants, { ...bash([]), command: undefined })).toBeUndefined();
  });

  it('bash: no grant for a command the analysis refuses or cannot read', () => {
    expect(grantScopeFor(bash([['ls']], ['command substitution']))).toMatch(/no pattern/);
    expect(grantScopeFor({ ...bash([]), command: undefined })).toMatch(/could not be analysed/);
    expect(grantScopeFor(bash([]))).toMatch(/runs nothing/);
  });

  it('MCP: the same tool of the same server, any arguments', () => {
    const call: GrantCall = {
      tool: 'mcp',
      toolClass: 'mcp',
      paths: [],
      mcpTarget: 'github/create_issue',
    };
    const grants = [grantOf('mcp', scopeOf(call))];
    expect(grantCovering(grants, call)?.n).toBe(1);
    expect(grantCovering(grants, { ...call, mcpTarget: 'github/delete_repo' })).toBeUndefined();
    expect(grantCovering(grants, { ...call, mcpTarget: 'gitlab/create_issue' })).toBeUndefined();
  });
});

describe('decide() with grants', () => {
  const policy = (grants: Grant[]): PolicyInput => ({
    approvalMode: 'confirm',
    workspaceRoot: WS,
    writableRoots: [WS],
    protectedRoots: [{ kind: 'definitions', path: `${WS}/.subagents` }],
    unattended: 'ask',
    grants,
  });
  const write = (path: string): PolicyCall => ({
    toolName: 'write',
    toolClass: 'write',
    paths: [path],
  });

  it('turns a covered ask into allow, naming the grant; anything else still asks', () => {
    const grants = [grantOf('write', { kind: 'paths', paths: [`${WS}/note.txt`] }, 3)];
    expect(decide(policy(grants), write(`${WS}/note.txt`))).toEqual({ kind: 'allow', grant: 3 });
    expect(decide(policy(grants), write(`${WS}/other.txt`)).kind).toBe('ask');
    expect(decide(policy([]), write(`${WS}/note.txt`)).kind).toBe('ask');
  });

  it('never covers a protected write, a hidden read or plan mode', () => {
    const agentFile = `${WS}/.subagents/agents/a.md`;
    const grants = [grantOf('write', { kind: 'paths', paths: [agentFile] })];
    expect(decide(policy(grants), write(agentFile)).kind).toBe('ask');
    expect(decide({ ...policy(grants), readOnly: true }, write(agentFile)).kind).toBe('deny');
  });

  it('matches an MCP call by the name it was called and its server/tool', () => {
    const grants = [grantOf('mcp', { kind: 'mcp', target: 'github/create_issue' })];
    const call: PolicyCall = {
      toolName: 'github/create_issue',
      toolClass: 'mcp',
      paths: [],
      calledName: 'mcp',
      mcpTarget: 'github/create_issue',
    };
    expect(decide(policy(grants), call)).toEqual({ kind: 'allow', grant: 1 });
    expect(decide(policy(grants), { ...call, mcpTarget: 'github/other' }).kind).toBe('ask');
  });
});
