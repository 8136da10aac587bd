import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRegistry } from '../../src/definitions/registry.js';
import type { DefinitionRegistry, RegistryOptions } from '../../src/definitions/registry.js';

export interface TempLayout {
  root: string;
  config: RegistryOptions['config'];
  dirs: { builtin: string; user: string; project: string; claude: string; qwen: string };
  write(path: string, content: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** A project root, user dir, workspace and data dir, all inside one fresh temp directory. */
export async function tempLayout(): Promise<TempLayout> {
  const root = await mkdtemp(join(tmpdir(), 'deputy-defs-'));
  const config = {
    projectRoot: join(root, 'project-root'),
    userDir: join(root, 'user'),
    workspace: join(root, 'workspace'),
    dataDir: join(root, 'data'),
    models: {
      aliases: {},
      catalog: { 'openai/gpt-4o-mini': { provider: 'openai' as const, model: 'gpt-4o-mini' } },
    },
  };
  await mkdir(config.workspace, { recursive: true });
  return {
    root,
    config,
    dirs: {
      builtin: join(config.projectRoot, 'agents'),
      user: join(config.userDir, 'agents'),
      project: join(config.workspace, '.subagents', 'agents'),
      claude: join(config.workspace, '.claude', 'agents'),
      qwen: join(config.workspace, '.qwen', 'agents'),
    },
    async write(path, content) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
      return path;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export function agentFile(name: string, extra = '', body = `You are ${name}.\n`): string {
  return `---\nname: ${name}\ndescription: ${name} agent\n${extra}---\n${body}`;
}

export async function loadedRegistry(
  layout: TempLayout,
  options: Partial<RegistryOptions> = {},
): Promise<DefinitionRegistry> {
  const registry = createRegistry({ config: layout.config, ...options });
  await registry.load();
  return registry;
}

/** Polls until `check` passes or the time runs out (watcher tests). */
export async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
