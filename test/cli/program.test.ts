import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure, EXIT } from '../../src/cli/exit-codes.js';
import type { Io } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/program.js';
import { ConfigError } from '../../src/shared/config-error.js';
import { DeputyError, invalidDefinition } from '../../src/errors.js';
import { TemporalUnreachableError } from '../../src/temporal/connection.js';

function captureIo(): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (text: string) => void (io.stdout += text.endsWith('\n') ? text : `${text}\n`),
    err: (text: string) => void (io.stderr += text.endsWith('\n') ? text : `${text}\n`),
  };
  return io;
}

describe('exit codes', () => {
  it('maps every failure kind to its documented code', () => {
    expect(describeFailure(new DeputyError('not-found', 'no card')).code).toBe(EXIT.notFound);
    expect(describeFailure(new DeputyError('conflict', 'decided')).code).toBe(EXIT.conflict);
    expect(describeFailure(new DeputyError('invalid', 'bad id')).code).toBe(EXIT.usage);
    expect(describeFailure(new DeputyError('forbidden', 'no')).code).toBe(EXIT.failed);
    expect(describeFailure(new DeputyError('read-only', 'built-in')).code).toBe(EXIT.failed);
    expect(
      describeFailure(invalidDefinition([{ path: 'name', message: 'must be kebab-case' }])),
    ).toEqual({
      code: EXIT.usage,
      message: 'the definition is invalid\n  name: must be kebab-case',
    });
    expect(describeFailure(new DeputyError('unavailable', 'no worker')).code).toBe(
      EXIT.unreachable,
    );
    expect(describeFailure(new ConfigError('bad yaml')).code).toBe(EXIT.usage);
    expect(describeFailure(new Error('boom')).code).toBe(EXIT.failed);
    const unreachable = describeFailure(new TemporalUnreachableError('cannot reach Temporal at x'));
    expect(unreachable.code).toBe(EXIT.unreachable);
    expect(unreachable.message).toContain('deputy dev');
    const grpc = Object.assign(new Error('14 UNAVAILABLE: No connection established'), {
      code: 14,
    });
    expect(describeFailure(grpc).code).toBe(EXIT.unreachable);
  });

  it('lists issues of an invalid request', () => {
    const error = new DeputyError('invalid', 'session is not valid', {
      issues: [{ path: 'session', message: 'too long' }],
    });
    expect(describeFailure(error).message).toContain('session: too long');
  });
});

describe('runCli', () => {
  it('answers --help and --version with 0 and a missing argument with 2', async () => {
    expect(await runCli(['--help'], captureIo())).toBe(EXIT.ok);
    expect(await runCli(['--version'], captureIo())).toBe(EXIT.ok);
    const io = captureIo();
    expect(await runCli(['approve'], io)).toBe(EXIT.usage);
    expect(io.stderr).toContain("missing required argument 'cardId'");
    expect(await runCli(['list', '--status', 'sleeping'], captureIo())).toBe(EXIT.usage);
    expect(await runCli(['frobnicate'], captureIo())).toBe(EXIT.usage);
  });

  it('exits 5 with a hint when no Temporal server is known for the data directory', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'deputy-cli-'));
    const previous = process.env.TEMPORAL_ADDRESS;
    delete process.env.TEMPORAL_ADDRESS;
    try {
      const io = captureIo();
      const code = await runCli(
        ['--workspace', workspace, '--data-dir', join(workspace, 'data'), 'cards'],
        io,
      );
      expect(code).toBe(EXIT.unreachable);
      expect(io.stderr).toContain('`deputy dev`');
    } finally {
      if (previous !== undefined) process.env.TEMPORAL_ADDRESS = previous;
    }
  });

  it('exits 2 for a workspace that does not exist', async () => {
    const io = captureIo();
    expect(await runCli(['--workspace', '/nonexistent/deputy-ws', 'agents', 'list'], io)).toBe(
      EXIT.usage,
    );
    expect(io.stderr).toContain('does not exist');
  });
});

describe('deputy agents', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-agents-'));
  mkdirSync(join(workspace, '.subagents', 'agents'), { recursive: true });
  writeFileSync(
    join(workspace, '.subagents', 'agents', 'helper.md'),
    '---\nname: helper\ndescription: A helper\ncolour: red\nmcpServers:\n  - name: gh\n    transport: stdio\n    command: gh-mcp\n    env: { GH_TOKEN: very-secret-value }\n---\nHelp.\n',
  );
  writeFileSync(
    join(workspace, '.subagents', 'agents', 'fetcher.md'),
    '---\nname: fetcher\ndescription: Fetches\ntools: Read, Write, WebFetch\n---\nFetch.\n',
  );
  const base = ['--workspace', workspace, '--data-dir', join(workspace, '.deputy')];
  // Keep the real ~/.config/deputy (user level) out of the listing.
  const previousUserDir = process.env.DEPUTY_USER_DIR;
  beforeAll(() => void (process.env.DEPUTY_USER_DIR = join(workspace, '.user')));
  afterAll(() => {
    if (previousUserDir === undefined) delete process.env.DEPUTY_USER_DIR;
    else process.env.DEPUTY_USER_DIR = previousUserDir;
  });

  it('lists definitions with their level and diagnostics', async () => {
    const io = captureIo();
    expect(await runCli([...base, 'agents', 'list', '--json'], io)).toBe(EXIT.ok);
    const agents = JSON.parse(io.stdout) as Array<{
      name: string;
      level: string;
      diagnostics: unknown[];
    }>;
    const names = agents.map((agent) => agent.name);
    expect(names).toEqual(expect.arrayContaining(['demo', 'helper']));
    expect(agents.find((agent) => agent.name === 'demo')?.level).toBe('builtin');
    expect(agents.find((agent) => agent.name === 'helper')?.diagnostics.length).toBeGreaterThan(0);

    const human = captureIo();
    expect(await runCli([...base, 'agents', 'list'], human)).toBe(EXIT.ok);
    expect(human.stdout).toMatch(/helper \(project\): A helper/);
    expect(human.stdout).toContain('colour');
  });

  it('shows one definition with secrets redacted, and exits 3 for an unknown one', async () => {
    const io = captureIo();
    expect(await runCli([...base, 'agents', 'show', 'helper', '--json'], io)).toBe(EXIT.ok);
    expect(io.stdout).not.toContain('very-secret-value');
    expect(JSON.parse(io.stdout)).toMatchObject({
      definition: { name: 'helper', systemPrompt: 'Help.\n' },
    });

    const human = captureIo();
    expect(await runCli([...base, 'agents', 'show', 'helper'], human)).toBe(EXIT.ok);
    expect(human.stdout).toContain('--- system prompt ---');
    expect(human.stdout).not.toContain('very-secret-value');

    const missing = captureIo();
    expect(await runCli([...base, 'agents', 'show', 'nobody'], missing)).toBe(EXIT.notFound);
    expect(missing.stderr).toContain("no agent named 'nobody'");
  });

  it('shows what the agent resolves to, and why each declared name that does not resolve', async () => {
    const anonymous = captureIo();
    expect(await runCli([...base, 'agents', 'show', 'fetcher'], anonymous)).toBe(EXIT.ok);
    expect(anonymous.stdout).toContain(
      'resolves to (caller: no identity (auth disabled); as a delegate (--main: as a main agent)):',
    );
    expect(anonymous.stdout).toContain('  tools: read, write\n');
    expect(anonymous.stdout).toMatch(
      /warning: tools\[2\]: 'WebFetch': WebFetch is a Claude Code tool with no deputy equivalent.*\[tool\.claude-only\]/,
    );

    const reader = captureIo();
    expect(
      await runCli([...base, 'agents', 'show', 'fetcher', '--roles', 'reader', '--json'], reader),
    ).toBe(EXIT.ok);
    const { resolution } = JSON.parse(reader.stdout) as {
      resolution: { tools: string[]; diagnostics: Array<{ code: string; path: string }> };
    };
    expect(resolution.tools).toEqual(['read']);
    expect(resolution.diagnostics.map((d) => `${d.path} ${d.code}`)).toEqual([
      'tools[1] tool.hidden-by-role',
      'tools[2] tool.claude-only',
    ]);
  });

  it('resolves the built-in main agent as a delegate by default and with Task under --main', async () => {
    const delegate = captureIo();
    expect(await runCli([...base, 'agents', 'show', 'main'], delegate)).toBe(EXIT.ok);
    expect(delegate.stdout).toContain('  tools: read, glob, grep\n');
    expect(delegate.stdout).toMatch(/tools\[3\]: 'Task' .*only a session's main agent delegates/);

    const main = captureIo();
    expect(await runCli([...base, 'agents', 'show', 'main', '--main'], main)).toBe(EXIT.ok);
    expect(main.stdout).toContain("as a session's main agent):");
    expect(main.stdout).toContain('  tools: read, glob, grep, Task, TaskOutput, TaskStop\n');
    expect(main.stdout).not.toContain('[tool.unknown]');
  });
});
