/**
 * The declared list of trusted files: every file or folder deputy, the commands that launch it
 * and the programs they run open to decide what runs, on every level (workspace, user, built-in
 * and runtime, data). The files those name in turn (hook scripts, MCP servers' scripts, model
 * scripts) are derived from the definitions instead (derived-trusted-files.ts). An agent that
 * could change one of them could widen its own authority, so a write into any of them asks for a
 * card outside `full-access` (decide(), src/policy/decide.ts), and those marked `hidden` are not
 * readable by agents at all.
 *
 * docs/policy.md ("Trusted files") prints this list for people; test/e2e/trusted-files-
 * enumeration.test.ts traces what deputy and its launchers really open, and fails when something
 * they read is not covered, so a new loader cannot forget to add itself.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import type { ProtectedKind } from '../shared/policy-contract.js';
import { toolsDirectoryOf } from './tools-directory.js';

export interface TrustedLocation {
  kind: ProtectedKind;
  /** Absolute, as deputy names it (not resolved: deputy-roots.ts resolves both forms). */
  path: string;
  /** What deputy does with it, in a few words: for docs and the enumeration test's failures. */
  role: string;
  /** Not readable by agents either: it holds secrets or other delegations' data. */
  hidden?: true;
}

/** The configuration's locations the list is computed from (DeputyConfig has them all). */
export interface TrustedConfig {
  /** Real absolute workspace root. */
  workspace: string;
  /** Absolute data directory (may not exist yet). */
  dataDir: string;
  /** Absolute user-level directory (`~/.config/deputy` by default). */
  userDir: string;
  /** The runtime's own package directory (built-in agents and skills, its code). */
  projectRoot: string;
  /** `skills.pluginDirs` of the configuration: more skill folders (absolute or workspace-relative). */
  skills: { pluginDirs: readonly string[] };
}

export interface TrustedOptions {
  /** For `~/.claude/skills`; default `os.homedir()`. */
  homeDir?: string;
  /** For DEPUTY_TOOLS_DIR and XDG_CACHE_HOME (where the Temporal CLI deputy runs is installed). */
  env?: NodeJS.ProcessEnv;
}

/** `<workspace>/.subagents/config.yaml`: the workspace configuration (it may name secrets). */
export const CONFIG_FILE = path.join('.subagents', 'config.yaml');

/**
 * The runtime's code as Node loads it: the package's own files and, when it is installed as a
 * dependency (`<project>/node_modules/deputy`), the `node_modules` its dependencies are hoisted to.
 */
const RUNTIME_ENTRIES = ['src', 'dist', 'bin', 'web/dist', 'package.json', 'node_modules'];

/**
 * What the commands people start deputy with (`npx deputy ...`, `npm start`, an MCP host's
 * `npx deputy mcp serve`) read in the workspace before deputy's own code runs: npm's settings
 * (`.npmrc` can set `node-options=--require ./x.cjs`), the project's scripts and lock files, the
 * version files of Node's version managers, and the folders npx looks in for `deputy` first.
 * Whoever changes one of them chooses what the next launch runs.
 */
const LAUNCHER_FILES = [
  '.npmrc',
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  '.nvmrc',
  '.node-version',
  '.tool-versions',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  'pnpm-workspace.yaml',
  path.join('node_modules', '.bin'),
  path.join('node_modules', 'deputy'),
];

export function trustedLocations(
  config: TrustedConfig,
  options: TrustedOptions = {},
): TrustedLocation[] {
  const home = options.homeDir ?? homedir();
  const env = options.env ?? process.env;
  return [
    ...workspaceLocations(config),
    ...userLocations(config, home),
    ...runtimeLocations(config, env, home),
    ...temporalClientLocations(env, home),
    {
      kind: 'runtime',
      path: path.join(env.XDG_CACHE_HOME?.trim() || path.join(home, '.cache'), 'swc-native-0'),
      role: "the copy of @swc/core's native library the workflow bundler loads",
    },
    {
      kind: 'data',
      path: config.dataDir,
      role: "deputy's state: Temporal's database, memory, revisions, MCP trust, blobs",
      hidden: true,
    },
    ...hoistedDependencies(config.projectRoot),
  ];
}

/** The workspace's agents, skills, configuration, MCP servers and repository. */
function workspaceLocations(config: TrustedConfig): TrustedLocation[] {
  const { workspace } = config;
  const inWorkspace = (...parts: string[]) => path.join(workspace, ...parts);
  return [
    {
      kind: 'definitions',
      path: inWorkspace('.subagents'),
      role: "deputy's project agents (agents/), skills (skills/) and configuration",
    },
    {
      kind: 'definitions',
      path: inWorkspace(CONFIG_FILE),
      role: 'the workspace configuration: MCP servers, auth, webhooks, secrets by name',
      hidden: true,
    },
    {
      kind: 'definitions',
      path: inWorkspace('.claude'),
      role: "Claude Code's agents, skills, settings and hooks",
    },
    { kind: 'definitions', path: inWorkspace('.qwen'), role: "qwen-code's agents and settings" },
    {
      kind: 'skills',
      path: inWorkspace('.agents', 'skills'),
      role: 'skills shared between agent hosts, offered to every agent',
    },
    {
      kind: 'mcp',
      path: inWorkspace('.mcp.json'),
      role: 'MCP servers deputy starts (commands it runs, URLs it calls)',
    },
    { kind: 'git', path: inWorkspace('.git'), role: 'the repository: its hooks and config run' },
    ...LAUNCHER_FILES.map((file): TrustedLocation => ({
      kind: 'launcher',
      path: inWorkspace(file),
      role: 'read by npm, npx or Node when a person launches deputy here',
    })),
    ...config.skills.pluginDirs.map((dir): TrustedLocation => ({
      kind: 'skills',
      path: path.isAbsolute(dir) ? path.resolve(dir) : path.resolve(workspace, dir),
      role: 'a plugin folder of skills (skills.pluginDirs)',
    })),
  ];
}

/** The user's own agents and skills, offered to every workspace, and npm's user settings. */
function userLocations(config: TrustedConfig, home: string): TrustedLocation[] {
  return [
    { kind: 'definitions', path: config.userDir, role: 'user-level agents and skills' },
    {
      kind: 'launcher',
      path: path.join(home, '.npmrc'),
      role: "npm's user settings (node-options, scripts): read by every npm and npx",
    },
    {
      kind: 'git',
      path: path.join(home, '.gitconfig'),
      role: "the user's git settings (hooks path, fsmonitor), looked for by npx",
    },
    {
      kind: 'skills',
      path: path.join(home, '.claude', 'skills'),
      role: "the user's Claude Code skills, offered to every agent",
    },
  ];
}

/** deputy's built-in agents and skills, its code, and the programs it installs and runs. */
function runtimeLocations(
  config: TrustedConfig,
  env: NodeJS.ProcessEnv,
  home: string,
): TrustedLocation[] {
  const { projectRoot } = config;
  return [
    {
      kind: 'definitions',
      path: path.join(projectRoot, 'agents'),
      role: 'built-in agents (demo, main)',
    },
    { kind: 'skills', path: path.join(projectRoot, 'skills'), role: 'built-in skills' },
    ...RUNTIME_ENTRIES.map((entry): TrustedLocation => ({
      kind: 'runtime',
      path: path.join(projectRoot, entry),
      role: "deputy's own code and dependencies, which its worker runs",
    })),
    {
      kind: 'runtime',
      path: toolsDirectoryOf(env, home),
      role: 'programs deputy runs: the Temporal CLI, the cluster server',
    },
  ];
}

/** The Temporal client's configuration: an address, TLS files, an API key. */
function temporalClientLocations(env: NodeJS.ProcessEnv, home: string): TrustedLocation[] {
  const file = env.TEMPORAL_CONFIG_FILE?.trim();
  return [
    {
      kind: 'definitions',
      path: path.join(env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config'), 'temporalio'),
      role: "the Temporal client's configuration profiles (address, TLS, API key)",
      hidden: true,
    },
    ...(file
      ? [
          {
            kind: 'definitions' as const,
            path: path.resolve(file),
            role: "the Temporal client's configuration file (TEMPORAL_CONFIG_FILE)",
            hidden: true as const,
          },
        ]
      : []),
  ];
}

/** Installed as a dependency, deputy's own dependencies are hoisted beside it. */
function hoistedDependencies(projectRoot: string): TrustedLocation[] {
  const hoisted = path.dirname(projectRoot);
  return path.basename(hoisted) === 'node_modules'
    ? [
        {
          kind: 'runtime',
          path: hoisted,
          role: "the node_modules deputy's dependencies are installed in",
        },
      ]
    : [];
}
