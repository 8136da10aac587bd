/**
 * `deputy cluster start|status|env|stop` as a user runs them: the cluster outlives the command
 * that started it, a `deputy worker` and `deputy delegate` use it through the lines
 * `deputy cluster env` prints (TEMPORAL_ADDRESS, and DEPUTY_BLOB_STORE_URL: long results go to
 * PostgreSQL, not the data directory), and `stop` leaves no process behind.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { processInfo } from '../../src/servers/process-info.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { spawnCliWorker } from '../integration/support/cli-worker.js';
import { writeFiles } from '../integration/support/harness.js';
import { useCleanups } from '../support/cleanups.js';
import { eventually } from '../support/eventually.js';

const cleanups = useCleanups();
let workspace: string;

// A result longer than the inline limit (2 048 characters): it goes to the blob store.
const files = {
  '.subagents/agents/lister.md':
    '---\nname: lister\ndescription: prints a long listing\nmodel: scripted:scripts/lister.yaml\ntools: [bash]\napprovalMode: full-access\n---\nList.\n',
  'scripts/lister.yaml': `turns:
  - text: Listing.
    toolCalls: [{ name: bash, arguments: { command: "seq 1 2000" } }]
  - text: "Listed: \${lastToolResult}"
`,
};

afterAll(async () => {
  if (workspace) {
    await runDeputy(['cluster', 'stop'], { cwd: workspace, env: envFor(workspace) });
    await rm(workspace, { recursive: true, force: true });
  }
}, 120_000);

function envFor(directory: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // The cluster's own address comes from `deputy cluster env`, never from the test run's.
  const env = { ...process.env };
  delete env.TEMPORAL_ADDRESS;
  return {
    ...env,
    DEPUTY_WORKSPACE: directory,
    DEPUTY_USER_DIR: join(directory, '.user-config'),
    ...extra,
  };
}

/** `export NAME='value'` lines -> { NAME: value }. */
function parseExports(text: string): Record<string, string> {
  return Object.fromEntries<string>(
    [...text.matchAll(/^export (\w+)='?([^'\n]*)'?$/gm)].map((match) => [match[1]!, match[2]!]),
  );
}

describe('deputy cluster', () => {
  it('starts a cluster that outlives the command, serves a worker and a delegation, and stops', async () => {
    workspace = await mkdtemp(join(tmpdir(), 'deputy-cluster-cli-'));
    // As root, PostgreSQL runs as user postgres, which must be able to enter the data directory.
    await chmod(workspace, 0o755);
    await writeFiles(workspace, files);
    const env = envFor(workspace);

    const started = await runDeputy(['cluster', 'start'], { cwd: workspace, env });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/^temporal: +127\.0\.0\.1:\d+/m);
    // A second start is refused while it runs, and says how to stop it.
    const again = await runDeputy(['cluster', 'start', '--no-ui'], { cwd: workspace, env });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('deputy cluster stop');

    const status = await runDeputy(['cluster', 'status', '--json'], { cwd: workspace, env });
    expect(status.code).toBe(0);
    const running = JSON.parse(status.stdout) as {
      state: string;
      address: string;
      uiUrl: string;
      processes: Record<string, { pid: number; running: boolean }>;
    };
    expect(running.state).toBe('running');
    expect(Object.keys(running.processes).sort()).toEqual(
      ['frontend', 'history', 'matching', 'postgres', 'ui', 'worker'].sort(),
    );
    // The Temporal UI answers for the cluster's namespace (its API proxies to the frontend).
    expect(started.stdout).toContain(`ui:         ${running.uiUrl}`);
    const namespace = await eventually(async () => {
      const response = await fetch(`${running.uiUrl}/api/v1/namespaces/default`);
      return response.ok
        ? ((await response.json()) as { namespaceInfo?: { name?: string } })
        : undefined;
    }, 'the Temporal UI to answer');
    expect(namespace.namespaceInfo?.name).toBe('default');
    // The status is secret-free; `env` prints the database URL only when asked.
    const exported = parseExports(
      (await runDeputy(['cluster', 'env'], { cwd: workspace, env })).stdout,
    );
    expect(exported.TEMPORAL_ADDRESS).toBe(running.address);
    const password = new URL(exported.DEPUTY_BLOB_STORE_URL!).password;
    expect(password.length).toBeGreaterThan(16);
    expect(status.stdout).not.toContain(password);
    expect(started.stdout + started.stderr).not.toContain(password);

    const workerEnv = envFor(workspace, exported);
    const worker = await spawnCliWorker(workspace, exported, cleanups);
    const delegated = await runDeputy(['delegate', 'lister', 'list', '--json'], {
      cwd: workspace,
      env: workerEnv,
    });
    expect(delegated.code, delegated.stderr).toBe(0);
    const { result } = JSON.parse(delegated.stdout) as { result: { status: string; text: string } };
    expect(result.status).toBe('completed');
    // The model saw the whole result, read back from the blob store.
    expect(result.text).toContain('1999\n2000');
    expect(worker.output()).not.toContain(password);

    // The long result went to PostgreSQL, not to the data directory.
    expect(existsSync(join(workspace, '.deputy', 'blobs'))).toBe(false);
    const database = new pg.Client({ connectionString: exported.DEPUTY_BLOB_STORE_URL });
    await database.connect();
    try {
      const { rows } = await database.query<{ count: string }>(
        "SELECT count(*) FROM deputy_blobs WHERE body LIKE '1\n2\n3\n%'",
      );
      expect(Number(rows[0]!.count)).toBeGreaterThan(0);
    } finally {
      await database.end();
    }

    const stopped = await runDeputy(['cluster', 'stop'], { cwd: workspace, env });
    expect(stopped.code).toBe(0);
    for (const { pid } of Object.values(running.processes)) {
      expect(processInfo(pid).state, `pid ${pid}`).toBe('gone');
    }
    const after = await runDeputy(['cluster', 'status'], { cwd: workspace, env });
    expect(after.stdout.trim()).toBe('stopped');
    expect(after.code).not.toBe(0);
    // Its data stays: started again on it, the cluster still knows the delegation.
    const restarted = await runDeputy(['cluster', 'start', '--no-ui'], { cwd: workspace, env });
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stdout).toContain(`temporal:   ${running.address}`);
    const listed = await runDeputy(['list', '--json'], { cwd: workspace, env: workerEnv });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ agent: 'lister', status: 'completed' })]),
    );
    expect((await runDeputy(['cluster', 'stop'], { cwd: workspace, env })).code).toBe(0);
    // `stop --remove` deletes its data.
    expect(await readdir(join(workspace, '.deputy', 'cluster'))).toContain('postgres');
    await runDeputy(['cluster', 'stop', '--remove'], { cwd: workspace, env });
    expect(existsSync(join(workspace, '.deputy', 'cluster'))).toBe(false);
  }, 240_000);
});
