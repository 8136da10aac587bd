/**
 * `temporal.workspaceId`: read from the file, overridden by DEPUTY_WORKSPACE_ID,
 * validated strictly, and turned into the workspace's tool queue.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/shared/config-error.js';
import { loadConfig, readConfigFile } from '../src/config/load.js';
import { toolQueueOf } from '../src/shared/workflow-contract/tool-queue.js';

async function workspaceWith(config: string | null): Promise<string> {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-workspace-id-'));
  if (config !== null) {
    mkdirSync(join(workspace, '.subagents'));
    writeFileSync(join(workspace, '.subagents', 'config.yaml'), config);
  }
  return workspace;
}

function load(workspace: string, env: Record<string, string> = {}) {
  return loadConfig({ workspace }, { DEPUTY_USER_DIR: join(workspace, '.user'), ...env });
}

describe('temporal.workspaceId', () => {
  it('is null without the key or the variable: no tool queue, as before', async () => {
    const config = load(await workspaceWith(null));
    expect(config.temporal.workspaceId).toBeNull();
    expect(toolQueueOf(config.temporal)).toBeNull();
  });

  it('names the tool queue after the task queue', async () => {
    const workspace = await workspaceWith('temporal:\n  workspaceId: build-box.1\n');
    expect(toolQueueOf(load(workspace).temporal)).toBe('deputy-delegations-tools/build-box.1');
    const custom = load(workspace, { DEPUTY_TASK_QUEUE: 'team' });
    expect(custom.temporal).toMatchObject({ taskQueue: 'team', workspaceId: 'build-box.1' });
    expect(toolQueueOf(custom.temporal)).toBe('team-tools/build-box.1');
  });

  it('is overridden by DEPUTY_WORKSPACE_ID; a blank variable is unset', async () => {
    const workspace = await workspaceWith('temporal:\n  workspaceId: from-file\n');
    expect(load(workspace, { DEPUTY_WORKSPACE_ID: 'from-env' }).temporal.workspaceId).toBe(
      'from-env',
    );
    expect(load(workspace, { DEPUTY_WORKSPACE_ID: '  ' }).temporal.workspaceId).toBe('from-file');
  });

  it.each(['has space', '-leading-dash', 'a/b', 'x'.repeat(65), ''])(
    'refuses %j in the file, naming the key',
    async (value) => {
      const workspace = await workspaceWith(`temporal:\n  workspaceId: ${JSON.stringify(value)}\n`);
      expect(() => load(workspace)).toThrow(ConfigError);
      expect(() => load(workspace)).toThrow(/temporal\.workspaceId: letters, digits/);
    },
  );

  it('refuses a bad variable, naming it and the key, never the value', async () => {
    const workspace = await workspaceWith(null);
    const attempt = () => load(workspace, { DEPUTY_WORKSPACE_ID: 'no/slashes-secretish' });
    expect(attempt).toThrow(/DEPUTY_WORKSPACE_ID \(temporal\.workspaceId\)/);
    expect(attempt).not.toThrow(/secretish/);
  });

  it('refuses unknown keys under temporal', async () => {
    const workspace = await workspaceWith('temporal:\n  address: localhost:7233\n');
    expect(() => load(workspace)).toThrow(/temporal/);
  });

  it('stays out of what the watcher re-reads: config.temporal is fixed at start', async () => {
    const workspace = await workspaceWith('temporal:\n  workspaceId: fixed\n');
    expect(readConfigFile(workspace, {})).not.toHaveProperty('temporal');
  });
});
