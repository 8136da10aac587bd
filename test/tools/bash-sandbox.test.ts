/**
 * The bash tool with the snapshot's sandbox on, against the real bubblewrap of this machine:
 * what the command sees of the environment and the ceilings, and the refusal when no sandbox
 * can be made.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapabilitySnapshot } from '../../src/shared/capability-snapshot.js';
import type { SandboxBounds } from '../../src/shared/sandbox-contract.js';
import { sandboxedArgv } from '../../src/sandbox/bubblewrap.js';
import { createBashTool } from '../../src/tools/bash.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { eventually } from '../support/eventually.js';

/** Command lines of this machine's processes that contain `text`. */
async function processesNamed(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text) && !cmdline.includes('vitest')) found.push(cmdline);
  }
  return found;
}

let workspace: string;

beforeEach(async () => {
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'deputy-bash-box-')));
});

afterEach(async () => {
  await fs.rm(workspace, { recursive: true, force: true });
});

function context(sandbox: Partial<SandboxBounds> | undefined): ToolContext {
  const snapshot = {
    ...(sandbox === undefined
      ? {}
      : { sandbox: { readOnly: [], readWrite: [workspace], env: [], limits: {}, ...sandbox } }),
  } as CapabilitySnapshot;
  return {
    workspaceRoot: workspace,
    snapshot,
    signal: new AbortController().signal,
    heartbeat: () => {},
  };
}

describe('bash in a sandbox', () => {
  it("passes only the declared variables of the worker's environment", async () => {
    process.env.DEPUTY_TEST_DECLARED = 'declared-value';
    process.env.DEPUTY_TEST_UNDECLARED = 'undeclared-value';
    try {
      const out = await createBashTool().run(
        { command: 'env' },
        context({ env: ['DEPUTY_TEST_DECLARED'] }),
      );
      expect(out).toContain('DEPUTY_TEST_DECLARED=declared-value');
      expect(out).not.toContain('undeclared-value');
    } finally {
      delete process.env.DEPUTY_TEST_DECLARED;
      delete process.env.DEPUTY_TEST_UNDECLARED;
    }
  });

  it('sets the declared ceilings before the command runs', async () => {
    const out = await createBashTool().run(
      { command: 'ulimit -t; ulimit -v' },
      context({ limits: { cpuSeconds: 7, memoryMiB: 256 } }),
    );
    expect(out).toBe(`7\n${256 * 1024}\n\n[exit code: 0]`);
  });

  it('covers a hidden folder inside the workspace', async () => {
    await fs.mkdir(path.join(workspace, 'kept'));
    await fs.writeFile(path.join(workspace, 'kept', 'secret.txt'), 'hidden-text');
    const bash = createBashTool({ hiddenRoots: [path.join(workspace, 'kept')] });
    const out = await bash.run({ command: 'ls -A kept; cat kept/secret.txt' }, context({}));
    expect(out).not.toContain('hidden-text');
  });

  it('kills what the command started when its timeout passes', async () => {
    const marker = '987654.25';
    await expect(
      createBashTool().run(
        { command: `sleep ${marker} & sleep ${marker}`, timeout_seconds: 1 },
        context({}),
      ),
    ).rejects.toThrow('command timed out after 1 seconds and was killed');
    const left = await eventually(async () => {
      const running = await processesNamed(marker);
      return running.length === 0 ? running : undefined;
    }, 'no sleep left');
    expect(left).toEqual([]);
  });

  it('refuses the call, never running it unsandboxed, when no sandbox can be made', async () => {
    const bash = createBashTool({
      hiddenRoots: [],
      runner: {
        find: () => ({ ok: false, problem: 'bubblewrap is not installed on this worker' }),
        argv: sandboxedArgv,
      },
    });
    await expect(bash.run({ command: 'touch ran.txt' }, context({}))).rejects.toThrow(
      "command was not run: the agent's sandbox is on, but bubblewrap is not installed on this worker",
    );
    await expect(fs.stat(path.join(workspace, 'ran.txt'))).rejects.toThrow();
  });
});
