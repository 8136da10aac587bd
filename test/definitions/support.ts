import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { DEFINITION_DEFAULTS } from '../../src/definitions/definition.js';
import type { AgentDefinition } from '../../src/definitions/definition.js';
import { createRegistry } from '../../src/definitions/registry/registry.js';
import type {
  DefinitionRegistry,
  RegistryOptions,
} from '../../src/definitions/registry/registry.js';

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
      default: 'scripted:agents/scripts/echo.yaml',
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

/**
 * An agent with every optional field at its documented default, spelled out value by value (what
 * parsing an empty frontmatter must give), with `fields` for the name, description, prompt and any
 * field a test sets.
 */
export function defaultDefinition(
  fields: Pick<AgentDefinition, 'name' | 'description' | 'systemPrompt'> & Partial<AgentDefinition>,
): AgentDefinition {
  return {
    model: DEFINITION_DEFAULTS.model,
    tools: null,
    disallowedTools: [],
    skills: [],
    mcpServers: [],
    knowledge: [],
    memory: 'none',
    maxTurns: 40,
    approvalMode: 'confirm',
    permissionMode: null,
    background: false,
    hooks: {},
    color: '#31AEE4',
    icon: 'bot',
    displayOrder: 0,
    unknownKeys: {},
    ...fields,
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

export interface TempRegistries {
  /** The current test's fresh layout. */
  readonly layout: TempLayout;
  /** Loads a registry over the current layout; it is closed after the test. */
  load(options?: Partial<RegistryOptions>): Promise<DefinitionRegistry>;
}

/**
 * For every test of the enclosing suite (or file): a fresh temp layout before it; after it, every
 * registry loaded through `load` closed and the layout removed.
 */
export function useTempRegistries(): TempRegistries {
  let current: TempLayout | undefined;
  const opened: DefinitionRegistry[] = [];
  beforeEach(async () => {
    current = await tempLayout();
  });
  afterEach(async () => {
    for (const registry of opened.splice(0)) await registry.close();
    await current?.cleanup();
    current = undefined;
  });
  const layout = (): TempLayout => {
    if (current === undefined) throw new Error('the temp layout is used outside a test');
    return current;
  };
  return {
    get layout() {
      return layout();
    },
    async load(options = {}) {
      const registry = await loadedRegistry(layout(), options);
      opened.push(registry);
      return registry;
    },
  };
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
