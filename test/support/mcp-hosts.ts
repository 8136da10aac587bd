/**
 * Real MCP hosts for the tests that check deputy's MCP server from the outside: Claude
 * Code, Qwen Code and the MCP Inspector, pinned, installed from npm once per machine into the
 * tools folder (src/paths/tools-directory.ts) as `mcp-hosts-<hash of the pins>`, so a change of
 * pin installs beside the old folder instead of over it. The install takes the tools folder's
 * lock and stages in a private folder renamed into place (src/servers/tool-install.ts): a killed
 * install never leaves a folder that looks done. About 640 MB: 20 s cold here (an empty npm
 * cache), nothing warm.
 *
 * Their engines ask for Node 22; the bins run on Node 20 all the same. Claude Code's bin is a
 * placeholder until its postinstall script puts the native binary of the platform over it, so an
 * npm that skipped scripts would install a host that cannot start: the install asks each host
 * for its version in the staging folder, and a host that does not answer with its pin fails the
 * install before anything is renamed into place.
 *
 * Each host run gets a home of its own (makeHostHome): nothing of the user's configuration is
 * read or written, and every update check, telemetry and error report is switched off, so no run
 * waits on a network that is not there.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toolsDirectoryOf } from '../../src/paths/tools-directory.js';
import { installToolOnce, type ToolInstallOutcome } from '../../src/servers/tool-install.js';

const run = promisify(execFile);

/** The hosts, exactly as npm installs them. */
export const MCP_HOST_PACKAGES = [
  '@anthropic-ai/claude-code@2.1.332',
  '@qwen-code/qwen-code@0.24.4',
  '@modelcontextprotocol/inspector@2.12.0',
] as const;

/** Each host's bin and the version it prints for `--version`, from the pins above. */
const HOST_BINS = {
  claude: { bin: 'claude', version: '2.1.332' },
  qwen: { bin: 'qwen', version: '0.24.4' },
  inspector: { bin: 'mcp-inspector', version: '2.12.0' },
} as const;

/**
 * Upper bound of a cold install (20 s here): npm is killed past it, and a test's set-up gives it
 * this much on top of its own work.
 */
export const MCP_HOSTS_INSTALL_TIMEOUT_MS = 5 * 60_000;

export interface McpHosts {
  /** The folder they are installed in. */
  directory: string;
  claude: string;
  qwen: string;
  inspector: string;
  outcome: ToolInstallOutcome;
}

export function mcpHostsDirectoryOf(env: NodeJS.ProcessEnv = process.env): string {
  const pins = createHash('sha256').update(MCP_HOST_PACKAGES.join('\n')).digest('hex');
  return join(toolsDirectoryOf(env), `mcp-hosts-${pins.slice(0, 12)}`);
}

/** The bins of the pinned hosts, installing them first when they are not there. */
export async function ensureMcpHosts(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = (line) => process.stderr.write(`[mcp-hosts] ${line}\n`),
): Promise<McpHosts> {
  const directory = mcpHostsDirectoryOf(env);
  const bins = binsIn(directory);
  const outcome = await installToolOnce({
    target: directory,
    name: 'the MCP hosts',
    // The staging folder is renamed into place only once npm is done and every host answered.
    isInstalled: () => Object.values(bins).every((path) => existsSync(path)),
    installing: `Installing the MCP hosts (${MCP_HOST_PACKAGES.join(' ')}) into ${directory}, about 20 s`,
    build: async (staging) => {
      await npmInstall(staging, env);
      await checkVersions(binsIn(staging));
    },
    log,
  });
  return { directory, ...bins, outcome };
}

function binsIn(prefix: string): Record<keyof typeof HOST_BINS, string> {
  const bin = (name: string): string => join(prefix, 'node_modules', '.bin', name);
  return {
    claude: bin(HOST_BINS.claude.bin),
    qwen: bin(HOST_BINS.qwen.bin),
    inspector: bin(HOST_BINS.inspector.bin),
  };
}

/** Each host, in a home of its own, prints its pinned version: it was installed whole. */
async function checkVersions(bins: Record<keyof typeof HOST_BINS, string>): Promise<void> {
  const home = await makeHostHome();
  try {
    for (const [host, { version }] of Object.entries(HOST_BINS)) {
      const path = bins[host as keyof typeof HOST_BINS];
      const { stdout } = await run(path, ['--version'], { env: home.env, timeout: 30_000 }).catch(
        (error: Error) => {
          throw new Error(`the installed ${host} does not start (${path}): ${error.message}`);
        },
      );
      if (!stdout.includes(version)) {
        throw new Error(
          `the installed ${host} says ${JSON.stringify(stdout.trim())}, not ${version}`,
        );
      }
    }
  } finally {
    await home.remove();
  }
}

async function npmInstall(prefix: string, env: NodeJS.ProcessEnv): Promise<void> {
  // A package.json of its own, so npm installs here and not into a project above the folder.
  await writeFile(join(prefix, 'package.json'), '{ "private": true }\n');
  try {
    await run(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
        '--loglevel=error',
        ...MCP_HOST_PACKAGES,
      ],
      {
        env: { ...env, npm_config_engine_strict: 'false' },
        maxBuffer: 16 * 1024 * 1024,
        timeout: MCP_HOSTS_INSTALL_TIMEOUT_MS - 30_000,
        killSignal: 'SIGKILL',
      },
    );
  } catch (error) {
    throw new Error(`npm could not install the MCP hosts: ${(error as Error).message}`);
  }
}

/** A host's own home: a temporary folder holding its configuration, removed by `remove`. */
export interface HostHome {
  path: string;
  /** The environment to run a host in: this home, no update checks, no telemetry. */
  env: NodeJS.ProcessEnv;
  remove: () => Promise<void>;
}

/**
 * Variables a host must not see from the test's environment: a real key or endpoint would make
 * it talk to a provider, a real config folder would be read or written.
 */
const HIDDEN_VARIABLES = [
  /^ANTHROPIC_/,
  /^CLAUDE_/,
  /^CLAUDECODE$/,
  /^OPENAI_/,
  /^QWEN_/,
  /^GEMINI_/,
  /^GOOGLE_/,
  /^XDG_/,
  /^MCP_/,
  /^npm_/,
];

export async function makeHostHome(base: NodeJS.ProcessEnv = process.env): Promise<HostHome> {
  const path = await mkdtemp(join(tmpdir(), 'deputy-mcp-host-home-'));
  const dirs = {
    XDG_CONFIG_HOME: join(path, '.config'),
    XDG_DATA_HOME: join(path, '.local', 'share'),
    XDG_STATE_HOME: join(path, '.local', 'state'),
    XDG_CACHE_HOME: join(path, '.cache'),
  };
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
  await writeQwenSettings(path);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (!HIDDEN_VARIABLES.some((pattern) => pattern.test(key))) env[key] = value;
  }
  Object.assign(env, dirs, {
    HOME: path,
    USERPROFILE: path,
    // Claude Code: its own config folder, and no updater, telemetry, error reports or other
    // traffic (each would try the network, and there is none).
    CLAUDE_CONFIG_DIR: join(path, '.claude'),
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // The Inspector's CLI mode opens no browser; said anyway.
    MCP_AUTO_OPEN_ENABLED: 'false',
    // Qwen Code: the same, beside its settings (writeQwenSettings); no warm-up connection to
    // its default provider either.
    QWEN_USAGE_STATISTICS_ENABLED: 'false',
    QWEN_TELEMETRY_ENABLED: 'false',
    QWEN_CODE_DISABLE_PRECONNECT: '1',
    NO_BROWSER: '1',
    CI: 'true',
  });
  return { path, env, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Qwen Code's user settings: no usage statistics, telemetry or update checks. */
async function writeQwenSettings(home: string): Promise<void> {
  const folder = join(home, '.qwen');
  await mkdir(folder, { recursive: true });
  const settings = {
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false },
  };
  await writeFile(join(folder, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}
