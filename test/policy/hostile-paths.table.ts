/**
 * The hostile-paths table: every trusted location deputy reads, reached every way a
 * path can name it without spelling it (a symbolic link, a hard link, a case or Unicode
 * variant, `..`), with what each approval mode must answer. test/policy/hostile-paths.test.ts
 * builds the tree of `TREE` on a real file system, resolves each row's path as the worker does
 * (pathsOfCalls, with identity) and asks decide() in every mode.
 *
 * Layout of the tree (relative to a temporary base):
 *   ws/                the workspace; ws/.deputy is the data directory
 *   user/              the user level (DEPUTY_USER_DIR)
 *   home/              the home directory (~/.claude/skills)
 *   ws/node_modules/deputy   the runtime's package (installed as a dependency of the workspace)
 */

/** What a row expects: `protected` writes ask outside full-access; `hidden` reads are denied. */
export type Expectation = 'protected' | 'hidden' | 'linked' | 'ordinary';

export interface HostileRow {
  /** Shown in the test's name. */
  what: string;
  tool: 'write' | 'edit' | 'read';
  /** As the model writes it: relative to the workspace, or absolute from `{base}`. */
  path: string;
  expect: Expectation;
}

/** Files and folders created before the rows run (relative to the base). */
export const TREE = {
  folders: [
    'ws/src',
    'ws/.subagents/agents',
    'ws/.subagents/skills/tidy',
    'ws/.claude/agents',
    'ws/.claude/skills',
    'ws/.qwen/agents',
    'ws/.agents/skills/review',
    'ws/.git/hooks',
    'ws/.deputy/memory/main',
    'ws/plugins/skïlls/lint',
    'ws/node_modules/deputy/agents',
    'ws/node_modules/deputy/skills',
    'ws/node_modules/deputy/dist',
    'ws/node_modules/zod',
    'ws/node_modules/.bin',
    'ws/scripts',
    'ws/hooks',
    'ws/tools',
    'user/agents',
    'home/.claude/skills',
    'tools',
  ],
  files: {
    'ws/.subagents/agents/fixer.md': '---\nname: fixer\n---\n',
    'ws/.subagents/config.yaml': 'auth: { tokens: [] }\n',
    'ws/.subagents/skills/tidy/SKILL.md': '---\nname: tidy\n---\n',
    'ws/.claude/settings.json': '{}\n',
    'ws/.claude/agents/helper.md': '---\nname: helper\n---\n',
    'ws/.qwen/agents/q.md': '---\nname: q\n---\n',
    'ws/.agents/skills/review/SKILL.md': '---\nname: review\n---\n',
    'ws/.mcp.json': '{"mcpServers":{}}\n',
    'ws/.git/config': '[core]\n',
    'ws/.deputy/memory/main/MEMORY.md': 'notes\n',
    'ws/plugins/skïlls/lint/SKILL.md': '---\nname: lint\n---\n',
    'ws/node_modules/deputy/package.json': '{}\n',
    'ws/node_modules/deputy/dist/worker.js': '\n',
    'ws/node_modules/zod/index.js': '\n',
    'user/agents/mine.md': '---\nname: mine\n---\n',
    'home/.claude/skills/SKILL.md': '---\nname: home\n---\n',
    'ws/src/ok.ts': 'export {};\n',
    'ws/package.json': '{"scripts":{"start":"deputy dev"}}\n',
    'ws/.npmrc': 'fund=false\n',
    'ws/scripts/check-call.sh': 'exit 0\n',
    'ws/scripts/lead.yaml': 'turns: [{ text: hi }]\n',
    'ws/tools/server.mjs': '\n',
    'ws/src/plain-a.txt': 'a\n',
  } as Record<string, string>,
  /** [link, target]: symbolic links, relative to the base. */
  symlinks: [
    ['ws/src/defs', '../.subagents/agents'],
    ['ws/src/settings.yaml', '../.subagents/config.yaml'],
    ['ws/src/skills-link', '../.agents/skills'],
    ['ws/src/mcp-link.json', '../.mcp.json'],
    ['ws/src/hooks', '../.git/hooks'],
    ['ws/src/state', '../.deputy'],
    ['ws/src/check-link.sh', '../scripts/check-call.sh'],
    ['ws/src/npmrc-link', '../.npmrc'],
  ] as Array<[string, string]>,
  /** [link, target]: hard links, relative to the base. */
  hardlinks: [
    ['ws/src/hl-fixer.md', 'ws/.subagents/agents/fixer.md'],
    ['ws/src/hl-config.yaml', 'ws/.subagents/config.yaml'],
    ['ws/src/hl-settings.json', 'ws/.claude/settings.json'],
    ['ws/src/hl-skill.md', 'ws/.agents/skills/review/SKILL.md'],
    ['ws/src/hl-mcp.json', 'ws/.mcp.json'],
    ['ws/src/hl-git-config', 'ws/.git/config'],
    ['ws/src/hl-memory.md', 'ws/.deputy/memory/main/MEMORY.md'],
    ['ws/src/hl-worker.js', 'ws/node_modules/deputy/dist/worker.js'],
    ['ws/src/hl-home-skill.md', 'home/.claude/skills/SKILL.md'],
    ['ws/src/plain-b.txt', 'ws/src/plain-a.txt'],
    ['ws/src/hl-check.sh', 'ws/scripts/check-call.sh'],
    ['ws/src/hl-package.json', 'ws/package.json'],
  ] as Array<[string, string]>,
};

/**
 * What the table's definitions and configuration name (src/named-executables.ts would find
 * these in real files): a hook's script, an MCP server's script, a scripted model's script.
 */
export const NAMED = {
  hookCommands: ['./scripts/check-call.sh --strict 2>/dev/null', 'python3 hooks/post.py'],
  serverCommands: [{ command: 'node', args: ['tools/server.mjs', '--port=0'] }],
  /** Relative to the workspace here; the test makes them absolute. */
  modelScripts: ['scripts/lead.yaml'],
};

/** The `skills.pluginDirs` of the configuration (NFC spelling). */
export const PLUGIN_DIR = 'plugins/skïlls'.normalize('NFC');

const write = (what: string, path: string, expect: Expectation = 'protected'): HostileRow => ({
  what,
  tool: 'write',
  path,
  expect,
});
const edit = (what: string, path: string, expect: Expectation = 'protected'): HostileRow => ({
  what,
  tool: 'edit',
  path,
  expect,
});
const read = (what: string, path: string, expect: Expectation = 'hidden'): HostileRow => ({
  what,
  tool: 'read',
  path,
  expect,
});

export const ROWS: HostileRow[] = [
  // Control rows: the table must tell an ordinary path from a trusted one.
  write('an ordinary file', 'src/ok.ts', 'ordinary'),
  read('an ordinary file', 'src/ok.ts', 'ordinary'),
  write(
    'an ordinary file with a second name (its other names cannot all be checked)',
    'src/plain-b.txt',
    'linked',
  ),
  read(
    'an agent definition (readable: reading widens nothing)',
    '.subagents/agents/fixer.md',
    'ordinary',
  ),

  // Every trusted location, as spelled.
  write('a project definition', '.subagents/agents/fixer.md'),
  write('a new project definition', '.subagents/agents/root.md'),
  write('a project skill', '.subagents/skills/tidy/SKILL.md'),
  write('the configuration', '.subagents/config.yaml'),
  edit("Claude Code's settings (hooks)", '.claude/settings.json'),
  write('a Claude Code agent', '.claude/agents/helper.md'),
  write('a qwen-code agent', '.qwen/agents/q.md'),
  write('a shared skill in .agents/skills', '.agents/skills/review/SKILL.md'),
  write('a new shared skill in .agents/skills', '.agents/skills/evil/SKILL.md'),
  write('.mcp.json', '.mcp.json'),
  write('a git hook', '.git/hooks/pre-commit'),
  write('the git config', '.git/config'),
  write('the data directory', '.deputy/memory/main/MEMORY.md'),
  write('a plugin skill folder (skills.pluginDirs)', `${PLUGIN_DIR}/lint/SKILL.md`),
  write("deputy's own code (installed as a dependency)", 'node_modules/deputy/dist/worker.js'),
  write('a built-in agent', 'node_modules/deputy/agents/demo.md'),
  write('a built-in skill', 'node_modules/deputy/skills/new/SKILL.md'),
  write("a dependency deputy's worker loads", 'node_modules/zod/index.js'),
  write('the user level', '{base}/user/agents/mine.md'),
  write("the user's Claude Code skills", '{base}/home/.claude/skills/SKILL.md'),
  write('the tools deputy runs (DEPUTY_TOOLS_DIR)', '{base}/tools/temporal'),
  write("the Temporal client's profiles", '{base}/home/.config/temporalio/temporal.yaml'),
  write("@swc/core's native cache", '{base}/home/.cache/swc-native-0/v1/swc.node'),
  read("the Temporal client's profiles", '{base}/home/.config/temporalio/temporal.yaml'),
  read('the configuration', '.subagents/config.yaml'),

  // What launches deputy (npx deputy, npm start) and what definitions name to run or replay.
  edit("the project's package.json (npm start's scripts)", 'package.json'),
  write('.npmrc (node-options=--require ...)', '.npmrc'),
  write("npm's user settings", '{base}/home/.npmrc'),
  write("the user's git settings", '{base}/home/.gitconfig'),
  write('a lock file', 'package-lock.json'),
  write('a shrinkwrap file', 'npm-shrinkwrap.json'),
  write("nvm's version file", '.nvmrc'),
  write('a Node version file', '.node-version'),
  write("asdf's version file", '.tool-versions'),
  write("Yarn's settings", '.yarnrc'),
  write("Yarn's settings (YAML)", '.yarnrc.yml'),
  write("pnpm's hook file", '.pnpmfile.cjs'),
  write("pnpm's workspace file", 'pnpm-workspace.yaml'),
  write('a program npx finds first', 'node_modules/.bin/deputy'),
  write('the deputy package npx finds first', 'node_modules/deputy/bin/deputy.mjs'),
  write("a hook's script", 'scripts/check-call.sh'),
  write("a hook's script that does not exist yet", 'hooks/post.py'),
  write("an MCP server's script", 'tools/server.mjs'),
  write("a scripted model's script", 'scripts/lead.yaml'),
  read("a hook's script (readable: reading widens nothing)", 'scripts/check-call.sh', 'ordinary'),
  write('a file beside a hook script', 'scripts/other.sh', 'ordinary'),
  read('the data directory', '.deputy/memory/main/MEMORY.md'),

  // Through a symbolic link.
  write('a definition through a linked folder', 'src/defs/fixer.md'),
  write('a shared skill through a linked folder', 'src/skills-link/review/SKILL.md'),
  write('.mcp.json through a link', 'src/mcp-link.json'),
  write('a git hook through a linked folder', 'src/hooks/post-checkout'),
  write("a hook's script through a link", 'src/check-link.sh'),
  write('.npmrc through a link', 'src/npmrc-link'),
  read('the configuration through a link', 'src/settings.yaml'),
  read('the data directory through a linked folder', 'src/state/memory/main/MEMORY.md'),

  // Through a hard link: the same inode under an ordinary name.
  write('a definition through a hard link', 'src/hl-fixer.md'),
  edit("Claude Code's settings through a hard link", 'src/hl-settings.json'),
  write('a shared skill through a hard link', 'src/hl-skill.md'),
  write('.mcp.json through a hard link', 'src/hl-mcp.json'),
  write('the git config through a hard link', 'src/hl-git-config'),
  write("deputy's code through a hard link", 'src/hl-worker.js'),
  write("a hook's script through a hard link", 'src/hl-check.sh'),
  edit('package.json through a hard link', 'src/hl-package.json'),
  write("the user's skill through a hard link", 'src/hl-home-skill.md'),
  write('the configuration through a hard link', 'src/hl-config.yaml'),
  read('the configuration through a hard link', 'src/hl-config.yaml'),
  read('the data directory through a hard link', 'src/hl-memory.md'),

  // Case and Unicode variants: the same file on a folding volume (macOS, ext4 casefold).
  write('a definition spelled in capitals', '.SUBAGENTS/agents/fixer.md'),
  write('a definition, one letter changed in case', '.subAgents/Agents/fixer.md'),
  write('.mcp.json in capitals', '.MCP.JSON'),
  write('.npmrc in capitals', '.NPMRC'),
  write('package.json, one letter in capitals', 'Package.json'),
  write('a definition with a long s (ſ, which case folding makes s)', '.ſubagents/agents/fixer.md'),
  write('.mcp.json in fullwidth letters', '.ｍｃｐ.ｊｓｏｎ'),
  write('.agents/skills in capitals', '.Agents/Skills/evil/SKILL.md'),
  write('a git hook in capitals', '.GIT/hooks/pre-commit'),
  write('a plugin skill folder, decomposed (NFD)', `${PLUGIN_DIR.normalize('NFD')}/lint/SKILL.md`),
  write(
    'a plugin skill folder, decomposed and in capitals',
    `${PLUGIN_DIR.normalize('NFD').toUpperCase()}/lint/SKILL.md`,
  ),
  read('the configuration in capitals', '.subagents/CONFIG.yaml'),
  read('the data directory in capitals', '.DEPUTY/memory/main/MEMORY.md'),

  // `..` and other spellings the lexical rule folds.
  write('a definition through ..', 'src/../.subagents/agents/fixer.md'),
  write('a definition with doubled slashes', '.subagents//agents///fixer.md'),
  write("a hook's script through ..", 'src/../scripts/./check-call.sh'),
  read('the configuration through ..', 'src/../.subagents/./config.yaml'),
];
