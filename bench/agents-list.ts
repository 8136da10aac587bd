/**
 * The `agents-list` bench: `GET /workspace/agents` with 200 project-level agents (tools, skills,
 * MCP servers, hooks, knowledge) on the real app (createApp, a loaded registry, auth off) against a
 * bare Hono app whose one route answers the same JSON (`c.json()` of the list parsed once; the
 * bytes are checked equal). Requests per second over loopback HTTP (the servers in a child process,
 * `fetch` with keep-alive, CONCURRENCY requests in flight) and in-process (`app.request`, one at a
 * time), runs alternating, warm-up first. Target: the real route at >= 0.8x the bare one. A last
 * line says where the route's own time goes, each step timed alone in-process.
 */
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolvedDiagnostics } from '../src/api/agents/resolution.js';
import { agentSummary } from '../src/api/agents/view.js';
import { discoverSkills } from '../src/capabilities/skill-discovery.js';
import { ANONYMOUS_CALLER } from '../src/shared/caller.js';
import { fixedConfig } from '../src/config/live-config.js';
import { liveSecretMasker } from '../src/secrets/live-masker.js';
import { buildAgentsListApps, LIST_PATH } from './agents-list-apps.js';
import { alternate, median, percentile, type BenchReport, type BenchRow } from './stats.js';

const AGENTS = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 6);
const RUN_MS = 1000;
const CONCURRENCY = 8;
const TARGET = 0.8;
const SERVER_SCRIPT = fileURLToPath(new URL('./agents-list-apps.ts', import.meta.url));

const TOOL_SETS = [
  'tools: [read, grep, glob]',
  'tools: read, edit, write, bash',
  'tools:\n  - FileSystem\n  - kb_search\n  - mcp:github',
  'tools: [read, memory_read, memory_write, use_skill]',
  '', // omitted: every tool the caller may use
];
const SKILLS = ['changelog', 'release-notes', 'code-review', 'not-installed'];

/** A varied definition: every field the list shows, inline MCP servers with secrets included. */
function definitionText(index: number): string {
  const name = `agent-${String(index).padStart(3, '0')}`;
  const lines = [
    `name: ${name}`,
    `description: "Agent ${index}: reviews, fixes and reports on part ${index % 17} of the code"`,
    index % 3 === 0 ? 'model: openai/gpt-4o-mini' : 'model: default',
    TOOL_SETS[index % TOOL_SETS.length]!,
    index % 4 === 0 ? 'disallowedTools: [bash]' : '',
    `skills: [${SKILLS.slice(0, (index % SKILLS.length) + 1).join(', ')}]`,
    'mcpServers:',
    '  - github',
    ...(index % 2 === 0
      ? [
          `  - name: local-${index}`,
          '    transport: stdio',
          '    command: node',
          '    args: [server.js, --verbose]',
          `    env: { LOCAL_TOKEN: "tok-${index}-0123456789abcdef" }`,
        ]
      : []),
    ...(index % 5 === 0
      ? [
          '  - name: remote',
          '    transport: http',
          '    endpoint: https://mcp.example.com/mcp',
          '    headers: { X-Team: platform }',
        ]
      : []),
    'hooks:',
    '  PreToolUse: [{ command: ./scripts/check-call.sh, timeoutSeconds: 10 }]',
    index % 2 === 0 ? '  Stop: [{ command: ./scripts/notify.sh }]' : '',
    'knowledge:',
    '  - { name: docs, glob: "docs/**/*.md" }',
    ...(index % 3 === 0 ? ['  - { name: notes, glob: "notes/*.txt" }'] : []),
    `memory: ${['none', 'private', 'shared'][index % 3]}`,
    `approvalMode: ${['confirm', 'auto-in-workspace', 'auto-edit'][index % 3]}`,
    `maxTurns: ${(index % 30) + 5}`,
    index % 7 === 0 ? 'color: "#AA3366"\nicon: wrench' : '',
    `displayOrder: ${index % 9}`,
  ].filter((line) => line !== '');
  const body = `You are ${name}.\n\n${'Follow the project conventions and report what you changed. '.repeat(30)}\n`;
  return `---\n${lines.join('\n')}\n---\n${body}`;
}

const CONFIG_YAML = `models:
  catalog:
    openai/gpt-4o-mini: { provider: openai, model: gpt-4o-mini, apiKeyEnv: BENCH_UNSET_API_KEY }
mcpServers:
  github:
    transport: http
    endpoint: https://mcp.example.com/github
    headers:
      Authorization: Bearer bench-literal-token-6f1c2e9a
`;

async function writeWorkspace(workspace: string): Promise<void> {
  const agents = join(workspace, '.subagents', 'agents');
  await mkdir(agents, { recursive: true });
  await writeFile(join(workspace, '.subagents', 'config.yaml'), CONFIG_YAML);
  for (const skill of SKILLS.slice(0, 3)) {
    await mkdir(join(workspace, '.subagents', 'skills', skill), { recursive: true });
    await writeFile(
      join(workspace, '.subagents', 'skills', skill, 'SKILL.md'),
      `---\nname: ${skill}\ndescription: The ${skill} skill\n---\nDo ${skill}.\n`,
    );
  }
  await Promise.all(
    Array.from({ length: AGENTS }, (_, index) =>
      writeFile(join(agents, `agent-${String(index).padStart(3, '0')}.md`), definitionText(index)),
    ),
  );
}

interface Run {
  perSecond: number;
  latencies: number[];
}

/** `concurrency` loops sending requests until `ms` have passed; each response read whole. */
async function drive(send: () => Promise<Response>, concurrency: number, ms: number): Promise<Run> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + ms;
  let failure: unknown = null;
  const loop = async () => {
    // A failure stops every loop; the first one is thrown once all have stopped.
    while (failure === null && performance.now() < deadline) {
      const sent = performance.now();
      try {
        const response = await send();
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${LIST_PATH} answered ${response.status}`);
      } catch (error) {
        failure ??= error;
        return;
      }
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  if (failure !== null) throw failure;
  return { perSecond: latencies.length / ((performance.now() - started) / 1000), latencies };
}

interface Compared {
  api: Run[];
  bare: Run[];
}

/** Warm-up of each, then RUNS pairs, alternating which goes first so drift hits both alike. */
async function compare(
  api: () => Promise<Response>,
  bare: () => Promise<Response>,
  concurrency: number,
): Promise<Compared> {
  await drive(api, concurrency, RUN_MS);
  await drive(bare, concurrency, RUN_MS);
  const result: Compared = { api: [], bare: [] };
  await alternate(RUNS, [
    async () => result.api.push(await drive(api, concurrency, RUN_MS)),
    async () => result.bare.push(await drive(bare, concurrency, RUN_MS)),
  ]);
  return result;
}

function reportRows(label: string, compared: Compared): BenchRow[] {
  const side = (runs: Run[]) => {
    const latencies = runs.flatMap((run) => run.latencies);
    return {
      perSecond: median(runs.map((run) => run.perSecond)),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  };
  const api = side(compared.api);
  const bare = side(compared.bare);
  return [
    {
      metric: `${label} req/s, deputy API vs bare Hono`,
      value: api.perSecond,
      unit: 'req/s',
      baseline: bare.perSecond,
      ratio: api.perSecond / bare.perSecond,
      target: `>= ${TARGET}`,
    },
    {
      metric: `${label} latency p50`,
      value: api.p50,
      unit: 'ms',
      baseline: bare.p50,
      ratio: api.p50 / bare.p50,
    },
    {
      metric: `${label} latency p99`,
      value: api.p99,
      unit: 'ms',
      baseline: bare.p99,
      ratio: api.p99 / bare.p99,
    },
  ];
}

/** Median microseconds per call of `step`, over 9 batches of `per` calls after a warm-up batch. */
function timeStep(step: () => unknown, per = 50): number {
  for (let index = 0; index < per; index++) step();
  const batches: number[] = [];
  for (let batch = 0; batch < 9; batch++) {
    const started = performance.now();
    for (let index = 0; index < per; index++) step();
    batches.push(((performance.now() - started) / per) * 1000);
  }
  return median(batches);
}

async function timeRequest(send: () => Promise<Response>, per = 50): Promise<number> {
  for (let index = 0; index < per; index++) await (await send()).arrayBuffer();
  const batches: number[] = [];
  for (let batch = 0; batch < 9; batch++) {
    const started = performance.now();
    for (let index = 0; index < per; index++) await (await send()).arrayBuffer();
    batches.push(((performance.now() - started) / per) * 1000);
  }
  return median(batches);
}

export async function benchAgentsList(): Promise<BenchReport> {
  const root = await mkdtemp(join(tmpdir(), 'deputy-bench-list-'));
  const workspace = join(root, 'workspace');
  await mkdir(join(root, 'user'), { recursive: true });
  await writeWorkspace(workspace);

  const child = fork(SERVER_SCRIPT, [workspace, root], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ports = await new Promise<{ api: number; bare: number }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { api: number; bare: number }));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`agents-list server exited with ${code}`)));
    });
    const local = await buildAgentsListApps(workspace, join(root, 'user'));
    const listed = (JSON.parse(local.body) as { agents: unknown[] }).agents.length;
    if (listed < AGENTS) throw new Error(`the list has ${listed} agents, expected ${AGENTS}+`);

    const apiUrl = `http://127.0.0.1:${ports.api}${LIST_PATH}`;
    const bareUrl = `http://127.0.0.1:${ports.bare}${LIST_PATH}`;
    const bodies = await Promise.all([
      fetch(apiUrl).then((response) => response.text()),
      fetch(bareUrl).then((response) => response.text()),
      Promise.resolve(local.bare.fetch(new Request(`http://localhost${LIST_PATH}`))).then((r) =>
        r.text(),
      ),
    ]);
    if (!bodies.every((body) => body === local.body)) {
      throw new Error('the bare handler does not answer the same bytes as the API');
    }

    const http = await compare(
      () => fetch(apiUrl),
      () => fetch(bareUrl),
      CONCURRENCY,
    );
    const inProcess = await compare(
      async () => local.app.fetch(new Request(`http://localhost${LIST_PATH}`)),
      async () => local.bare.fetch(new Request(`http://localhost${LIST_PATH}`)),
      1,
    );

    // Each step of the route alone, as agent-routes.ts runs it.
    const { registry } = local;
    const masker = liveSecretMasker(fixedConfig(local.config));
    const summaries = () =>
      registry
        .listAll()
        .map((loaded) => agentSummary(loaded, registry.get(loaded.definition.name) === loaded));
    const list = { v: 1, workspaceCwd: local.config.workspace, agents: summaries() };
    const masked = masker.value(list);
    const skills = discoverSkills(local.config);
    const resolveAll = () =>
      registry
        .listAll()
        .map((loaded) =>
          resolvedDiagnostics(loaded, { config: local.config, caller: ANONYMOUS_CALLER, skills }),
        );
    const steps = {
      listAll: timeStep(() => registry.listAll()),
      skills: timeStep(() => discoverSkills(local.config), 5),
      resolution: timeStep(resolveAll, 5),
      agentSummary: timeStep(summaries),
      masker: timeStep(() => masker.value(list)),
      json: timeStep(() => JSON.stringify(masked)),
      route: await timeRequest(async () =>
        local.app.fetch(new Request(`http://localhost${LIST_PATH}`)),
      ),
      bare: await timeRequest(async () =>
        local.bare.fetch(new Request(`http://localhost${LIST_PATH}`)),
      ),
    };
    const step = (metric: string, value: number): BenchRow => ({ metric, value, unit: 'µs' });

    return {
      name: `GET ${LIST_PATH}: deputy API vs bare Hono, same JSON (${listed} agents, ${(local.body.length / 1024).toFixed(0)} KiB; median of ${RUNS} alternating ${RUN_MS} ms runs)`,
      rows: [
        ...reportRows(`HTTP x${CONCURRENCY}`, http),
        ...reportRows('in-process', inProcess),
        {
          metric: 'in-process per request: whole route vs bare',
          value: steps.route,
          unit: 'µs',
          baseline: steps.bare,
          ratio: steps.route / steps.bare,
        },
        step('  of which registry.listAll', steps.listAll),
        step(`  of which agentSummary x${listed}`, steps.agentSummary),
        step('  on a rebuild (at most every 2 s): skill discovery', steps.skills),
        step(`  on a rebuild: capability resolution x${listed}`, steps.resolution),
        step('  of which secret masker deep copy', steps.masker),
        step('  of which JSON.stringify', steps.json),
      ],
      notes: [
        `HTTP: servers in a child process, fetch with keep-alive, ${CONCURRENCY} requests in flight; in-process: app.request one at a time`,
        "the route's steps timed alone in process, as agent-routes.ts runs them",
        'the route keeps its answer while nothing changed, for the same roles, for at most 2 s: a rebuild (skill discovery, resolution of every agent for the caller) is paid once per 2 s, not per request',
      ],
    };
  } finally {
    if (child.connected) child.disconnect();
    await new Promise((resolve) =>
      child.exitCode === null ? child.once('exit', resolve) : resolve(null),
    );
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { printReports } = await import('./report.js');
  printReports([await benchAgentsList()], 'agents-list');
}
