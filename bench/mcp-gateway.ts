/**
 * The `mcp` bench: the MCP gateway against a plain SDK client, on the fixture server of
 * test/fixtures/mcp over stdio and over Streamable HTTP, one dev server and one worker
 * (startWorkerRuntime, in this process) for everything.
 *
 * 1. Gateway vs direct, per call. A: a scripted delegation whose one tool call is
 *    `mcp_call {server: fx, tool: echo}` with `echo` in the server's `approve` list (no card),
 *    timed as its `runTool` activity, read from the workflow history (ActivityTaskScheduled to
 *    ActivityTaskCompleted). B: the same `echo` with an SDK `Client` already connected to the
 *    same server, in the same process. C: the gateway's `mcp_call` implementation called in
 *    process, no Temporal (what A runs inside the activity). Then per call inside a delegation
 *    of 10 such calls (end to end / 10) against 10 direct calls, with a delegation of 10
 *    built-in `read` calls as the floor any tool pays (its runTool activities are shown too).
 * 2. First call, pooled vs must-connect: from WorkflowExecutionStarted to the first `runTool`
 *    completion, (a) for a server the worker's pool has connected, (b) for one it has never
 *    seen (a fresh agent file per sample whose inline server differs by one env value or
 *    header, so its pool key differs). The handshake of (b) lands in `resolveAgent`, which
 *    waits up to 5 s for declared servers that are connecting. The pool never drops a server,
 *    so each stdio sample's process lives until the worker stops (30 idle fixture processes).
 *    Its fair baseline: a plain SDK client's cold start, connect + one call, to a fresh server
 *    (stdio: a new process of the same fixture; http: a new session on the running server), so
 *    the row shows what deputy adds over the server's own start.
 * 3. A fresh worker: a second startWorkerRuntime in this process, on a task queue of
 *    its own, whose workspace declares the same stdio and http servers, so its pool starts
 *    empty and connects them ahead of use. Its first delegation's first call against a pooled
 *    call on the long-running worker, twice: (a) started the moment startWorkerRuntime resolved
 *    (the worker polls; connect-ahead may still be running, and the notes say how often it
 *    had finished), and (b) started once its pool reports the server connected (the worker is
 *    up with what it declares). Also: how long after the start began connect-ahead had the
 *    server connected, against the plain client's cold connect + call. It runs before 2, whose
 *    fresh agents would add a server each to what every fresh worker connects; min(PAIRS, 10)
 *    samples (each starts and stops a worker).
 *
 * Every sample set alternates its sides (rotating who goes first) after a warm-up.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createAgentResolver } from '../src/worker/agent-resolver.js';
import { loadConfig } from '../src/config/load.js';
import { createRegistry } from '../src/definitions/registry/registry.js';
import { createMcpTools } from '../src/mcp-client/gateway-tools.js';
import { createMcpRuntime } from '../src/mcp-client/mcp-runtime.js';
import { liveConfigOf } from '../src/config/live-config.js';
import { ANONYMOUS_CALLER } from '../src/shared/caller.js';
import { delegationWorkflowId, type DelegationResult } from '../src/shared/delegation.js';
import { startDevServer } from '../src/servers/dev/dev-server.js';
import { startWorkerRuntime, WORKFLOWS_PATH, type WorkerRuntime } from '../src/worker/worker.js';
import { countPids, startHttpFixture, stdioFixtureCommand } from '../test/fixtures/mcp/start.js';
import {
  alternate,
  eventMs,
  median,
  percentile,
  type BenchReport,
  type BenchRow,
} from './stats.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 30);
/** Section 3 starts and stops a worker per sample: fewer of them. */
const FRESH_WORKER_PAIRS = Math.min(PAIRS, 10);
const WARMUP = 3;
const CALLS = 10;
const SESSION = 'bench';

type Transport = 'stdio' | 'http';

/** What one delegation's history says, in server time (ms). */
interface Timeline {
  /** WorkflowExecutionStarted to the first runTool's ActivityTaskCompleted. */
  toFirstResult: number;
  /** The resolveAgent activity, scheduled to completed. */
  resolve: number;
  /** Each runTool activity, scheduled to completed. */
  tools: number[];
  /** Each runTool activity, started (picked up by the worker) to completed. */
  toolsRunning: number[];
  /** Client side: start until the result is in hand. */
  endToEnd: number;
}

function expect(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`mcp-gateway bench: ${what}`);
}

export async function benchMcpGateway(): Promise<BenchReport> {
  const root = await mkdtemp(join(tmpdir(), 'deputy-bench-mcp-'));
  const workspace = join(root, 'workspace');
  const agentsDir = join(workspace, '.subagents', 'agents');
  await mkdir(agentsDir, { recursive: true });
  await mkdir(join(workspace, 'scripts'), { recursive: true });
  await mkdir(join(root, 'pids'), { recursive: true });
  await writeFile(join(workspace, 'note.txt'), 'a small file to read\n');

  const mcpCall = `{ name: mcp_call, arguments: { server: fx, tool: echo, arguments: { text: "\${task}" } } }`;
  const script = (calls: number, call: string) =>
    `turns:\n${Array.from({ length: calls }, (_, i) => `  - text: call ${i + 1}\n    toolCalls: [${call}]`).join('\n')}\n  - text: done\n`;
  await writeFile(join(workspace, 'scripts', 'one.yaml'), script(1, mcpCall));
  await writeFile(join(workspace, 'scripts', 'ten.yaml'), script(CALLS, mcpCall));
  await writeFile(
    join(workspace, 'scripts', 'read-ten.yaml'),
    script(CALLS, '{ name: read, arguments: { path: note.txt } }'),
  );
  await writeFile(
    join(workspace, 'scripts', 'read-one.yaml'),
    script(1, '{ name: read, arguments: { path: note.txt } }'),
  );

  const stdio = stdioFixtureCommand();
  const stops: Array<() => Promise<void>> = [() => rm(root, { recursive: true, force: true })];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const http = await startHttpFixture();
    stops.push(() => http.stop());
    const serverFor = (transport: Transport, variant?: string): Record<string, unknown> =>
      transport === 'stdio'
        ? {
            name: 'fx',
            transport: 'stdio',
            command: stdio.command,
            args: stdio.args,
            env: variant === undefined ? {} : { FIXTURE_PID_FILE: join(root, 'pids', variant) },
            approve: ['echo'],
          }
        : {
            name: 'fx',
            transport: 'http',
            endpoint: http.url,
            headers: variant === undefined ? {} : { 'x-bench-sample': variant },
            approve: ['echo'],
          };
    const writeAgent = (name: string, scriptFile: string, server?: Record<string, unknown>) =>
      writeFile(
        join(agentsDir, `${name}.md`),
        [
          '---',
          `name: ${name}`,
          'description: MCP gateway benchmark agent',
          `model: scripted:scripts/${scriptFile}`,
          'tools: [read]',
          ...(server === undefined ? [] : [`mcpServers: ${JSON.stringify([server])}`]),
          `maxTurns: ${CALLS + 5}`,
          '---',
          'Bench.',
          '',
        ].join('\n'),
      );
    for (const transport of ['stdio', 'http'] as const) {
      await writeAgent(`gw-${transport}-one`, 'one.yaml', serverFor(transport));
      await writeAgent(`gw-${transport}-ten`, 'ten.yaml', serverFor(transport));
    }
    await writeAgent('read-ten', 'read-ten.yaml');
    await writeAgent('read-one', 'read-one.yaml');

    const devServer = await startDevServer({ dataDir: join(root, 'data'), headless: true });
    stops.push(() => devServer.stop());
    const config = loadConfig(
      { workspace, temporalAddress: devServer.address },
      { DEPUTY_USER_DIR: join(root, 'user') },
    );
    const taskQueue = `bench-mcp-${randomUUID()}`;
    // Bundled once: section 3 starts a worker per sample, which must not time webpack.
    const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const workflowBundle = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      logger: silent,
    });
    const worker = await startWorkerRuntime(config, devServer.address, {
      taskQueue,
      workflowBundle,
    });
    stops.push(() => worker.stop());
    const connection = await Connection.connect({ address: devServer.address });
    stops.push(() => connection.close());
    const client = new Client({ connection, namespace: config.temporal.namespace });

    // B: plain SDK clients, connected once, to the same servers (stdio: the same command, so
    // a process of its own; http: the very server the worker's pool talks to).
    const direct: Record<Transport, McpClient> = {
      stdio: new McpClient({ name: 'bench-direct', version: '0.0.0' }),
      http: new McpClient({ name: 'bench-direct', version: '0.0.0' }),
    };
    await direct.stdio.connect(
      new StdioClientTransport({ ...stdio, stderr: 'ignore', cwd: workspace }),
    );
    stops.push(() => direct.stdio.close());
    await direct.http.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    stops.push(() => direct.http.close());

    // C: the gateway's own code without Temporal: the `mcp_call` implementation the runTool
    // activity builds, over a pool of this process's own (so again its own stdio process).
    const registry = createRegistry({ config });
    await registry.load();
    stops.push(() => registry.close());
    const mcp = createMcpRuntime({ settings: liveConfigOf(config), definitions: registry });
    stops.push(() => mcp.close());
    const resolver = createAgentResolver(config, registry, {}, mcp);
    const inProcessCall = {} as Record<Transport, (text: string) => Promise<string>>;
    for (const transport of ['stdio', 'http'] as const) {
      const resolved = await resolver.resolve(`gw-${transport}-one`, ANONYMOUS_CALLER);
      expect(resolved !== null, `gw-${transport}-one did not resolve`);
      const { snapshot } = resolved;
      const tool = createMcpTools(snapshot, mcp).find((each) => each.schema.name === 'mcp_call');
      expect(tool !== undefined, 'no mcp_call in the snapshot');
      inProcessCall[transport] = (text) =>
        tool.run(
          { server: 'fx', tool: 'echo', arguments: { text } },
          // A signal per call, as each activity has its own.
          {
            workspaceRoot: workspace,
            snapshot,
            signal: new AbortController().signal,
            heartbeat: () => {},
          },
        );
    }

    let runs = 0;
    const delegate = async (
      agent: string,
      expectedCalls: number,
      echoes = true,
      queue = taskQueue,
    ): Promise<Timeline> => {
      const id = `m-${++runs}-${randomUUID().slice(0, 8)}`;
      const task = `hello ${id}`;
      const workflowId = delegationWorkflowId(SESSION, id);
      const started = performance.now();
      const result = (await client.workflow.execute('delegation', {
        taskQueue: queue,
        workflowId,
        args: [
          {
            delegationId: id,
            agent,
            task,
            session: SESSION,
            caller: { id: null, roles: [] },
            options: {},
          },
        ],
      })) as DelegationResult;
      const endToEnd = performance.now() - started;
      expect(result.status === 'completed', `${agent} ended ${result.status}: ${result.text}`);
      const timeline = await readTimeline(client, workflowId, echoes ? task : null, expectedCalls);
      return { ...timeline, endToEnd };
    };
    const directCall = async (transport: Transport): Promise<number> => {
      const text = `hello direct ${++runs}`;
      const started = performance.now();
      const result = (await direct[transport].callTool({
        name: 'echo',
        arguments: { text },
      })) as CallToolResult;
      const elapsed = performance.now() - started;
      const first = result.content[0];
      expect(first?.type === 'text' && first.text === text, 'direct echo answered wrong');
      return elapsed;
    };
    const inProcess = async (transport: Transport): Promise<number> => {
      const text = `hello in-process ${++runs}`;
      const started = performance.now();
      const answer = await inProcessCall[transport](text);
      const elapsed = performance.now() - started;
      expect(answer === text, `in-process gateway answered ${answer.slice(0, 200)}`);
      return elapsed;
    };
    // A plain client's cold start: a new client (stdio: a new server process), connect, one call.
    const coldDirect = async (transport: Transport): Promise<number> => {
      const text = `hello cold ${++runs}`;
      const cold = new McpClient({ name: 'bench-cold', version: '0.0.0' });
      const started = performance.now();
      try {
        await cold.connect(
          transport === 'stdio'
            ? new StdioClientTransport({ ...stdio, stderr: 'ignore', cwd: workspace })
            : new StreamableHTTPClientTransport(new URL(http.url)),
        );
        const result = (await cold.callTool({
          name: 'echo',
          arguments: { text },
        })) as CallToolResult;
        const elapsed = performance.now() - started;
        const answer = result.content[0];
        expect(answer?.type === 'text' && answer.text === text, 'cold echo answered wrong');
        return elapsed;
      } finally {
        await cold.close();
      }
    };
    const directCalls = async (transport: Transport, count: number): Promise<number> => {
      const started = performance.now();
      for (let index = 0; index < count; index++) await directCall(transport);
      return performance.now() - started;
    };

    // Warm-up: bundles, connections, SQLite pages, both pooled clients connected.
    for (let index = 0; index < WARMUP; index++) {
      for (const transport of ['stdio', 'http'] as const) {
        await delegate(`gw-${transport}-one`, 1);
        await delegate(`gw-${transport}-ten`, CALLS);
        await directCalls(transport, CALLS);
        for (let call = 0; call < CALLS; call++) await inProcess(transport);
      }
      await delegate('read-ten', CALLS, false);
    }

    // 1a. One call: the runTool activity against one direct call.
    const single = {
      stdio: { gateway: [] as Timeline[], direct: [] as number[], inProcess: [] as number[] },
      http: { gateway: [] as Timeline[], direct: [] as number[], inProcess: [] as number[] },
    };
    await alternate(PAIRS, [
      async () => single.stdio.gateway.push(await delegate('gw-stdio-one', 1)),
      async () => single.stdio.direct.push(await directCall('stdio')),
      async () => single.stdio.inProcess.push(await inProcess('stdio')),
      async () => single.http.gateway.push(await delegate('gw-http-one', 1)),
      async () => single.http.direct.push(await directCall('http')),
      async () => single.http.inProcess.push(await inProcess('http')),
    ]);

    // 1b. Ten calls: a delegation end to end against ten direct calls, and ten built-in reads.
    const ten = {
      stdio: { gateway: [] as Timeline[], direct: [] as number[] },
      http: { gateway: [] as Timeline[], direct: [] as number[] },
      read: [] as Timeline[],
    };
    await alternate(PAIRS, [
      async () => ten.stdio.gateway.push(await delegate('gw-stdio-ten', CALLS)),
      async () => ten.stdio.direct.push(await directCalls('stdio', CALLS)),
      async () => ten.http.gateway.push(await delegate('gw-http-ten', CALLS)),
      async () => ten.http.direct.push(await directCalls('http', CALLS)),
      async () => ten.read.push(await delegate('read-ten', CALLS, false)),
    ]);

    // 3 (run before 2, see the header). A fresh worker per sample, its first delegation.
    const freshWorker = {
      stdio: { atReady: [] as FreshWorkerRun[], connected: [] as FreshWorkerRun[] },
      http: { atReady: [] as FreshWorkerRun[], connected: [] as FreshWorkerRun[] },
      /** The fresh worker's own first-delegation cost: one built-in read, no MCP. */
      read: [] as FreshWorkerRun[],
      pooled: { stdio: [] as Timeline[], http: [] as Timeline[] },
      cold: { stdio: [] as number[], http: [] as number[] },
    };
    const freshWorkerRun = async (
      transport: Transport,
      when: 'at ready' | 'once connected' | 'read',
    ): Promise<FreshWorkerRun> => {
      const queue = `bench-mcp-fresh-${randomUUID()}`;
      const began = performance.now();
      // The pool's own word, the moment it has the server connected (it may be before ready).
      let connectedMs = Number.NaN;
      let onConnected = () => {};
      const connected = new Promise<void>((resolve) => (onConnected = resolve));
      const fresh: WorkerRuntime = await startWorkerRuntime(config, devServer.address, {
        taskQueue: queue,
        workflowBundle,
        log: (line) => {
          if (!Number.isNaN(connectedMs)) return;
          if (!line.startsWith(`MCP server 'fx' connected over ${transport} `)) return;
          connectedMs = performance.now() - began;
          onConnected();
        },
      });
      try {
        const readyMs = performance.now() - began;
        const connectedAtReady = !Number.isNaN(connectedMs);
        if (when === 'once connected') {
          const never = setTimeout(() => onConnected(), 60_000);
          await connected;
          clearTimeout(never);
          expect(
            !Number.isNaN(connectedMs),
            `connect-ahead never connected the ${transport} server`,
          );
        }
        const timeline =
          when === 'read'
            ? await delegate('read-one', 1, false, queue)
            : await delegate(`gw-${transport}-one`, 1, true, queue);
        return { timeline, readyMs, connectedMs, connectedAtReady };
      } finally {
        await fresh.stop();
      }
    };
    await alternate(FRESH_WORKER_PAIRS, [
      async () => freshWorker.stdio.atReady.push(await freshWorkerRun('stdio', 'at ready')),
      async () => freshWorker.stdio.connected.push(await freshWorkerRun('stdio', 'once connected')),
      async () => freshWorker.pooled.stdio.push(await delegate('gw-stdio-one', 1)),
      async () => freshWorker.cold.stdio.push(await coldDirect('stdio')),
      async () => freshWorker.http.atReady.push(await freshWorkerRun('http', 'at ready')),
      async () => freshWorker.http.connected.push(await freshWorkerRun('http', 'once connected')),
      async () => freshWorker.pooled.http.push(await delegate('gw-http-one', 1)),
      async () => freshWorker.cold.http.push(await coldDirect('http')),
      async () => freshWorker.read.push(await freshWorkerRun('stdio', 'read')),
    ]);

    // 2. First call: pooled against a server the pool has never seen.
    const first = {
      stdio: { pooled: [] as Timeline[], fresh: [] as Timeline[], cold: [] as number[] },
      http: { pooled: [] as Timeline[], fresh: [] as Timeline[], cold: [] as number[] },
    };
    let fresh = 0;
    const freshRun = async (transport: Transport): Promise<Timeline> => {
      const variant = `${transport}-${++fresh}`;
      const name = `fresh-${variant}`;
      await writeAgent(name, 'one.yaml', serverFor(transport, variant));
      const timeline = await delegate(name, 1);
      if (transport === 'stdio') {
        expect(countPids(join(root, 'pids', variant)) === 1, `${name} did not start one server`);
      }
      return timeline;
    };
    await alternate(PAIRS, [
      async () => first.stdio.pooled.push(await delegate('gw-stdio-one', 1)),
      async () => first.stdio.fresh.push(await freshRun('stdio')),
      async () => first.http.pooled.push(await delegate('gw-http-one', 1)),
      async () => first.http.fresh.push(await freshRun('http')),
      async () => first.stdio.cold.push(await coldDirect('stdio')),
      async () => first.http.cold.push(await coldDirect('http')),
    ]);

    // Each comparison as two rows: p50 and p90, value against baseline.
    const versus = (metric: string, a: number[], b: number[]): BenchRow[] =>
      (
        [
          ['p50', median],
          ['p90', (values: number[]) => percentile(values, 90)],
        ] as const
      ).map(([stat, of]) => ({
        metric: `${metric} ${stat}`,
        value: of(a),
        unit: 'ms',
        baseline: of(b),
        ratio: of(a) / of(b),
      }));
    const part = (metric: string, values: number[]): BenchRow => ({
      metric,
      value: median(values),
      unit: 'ms',
    });
    const readActivities = ten.read.flatMap((run) => run.tools);
    const rows: BenchRow[] = [];
    for (const transport of ['stdio', 'http'] as const) {
      const s = single[transport];
      const activity = s.gateway.map((run) => run.tools[0]!);
      const dispatch = s.gateway.map((run) => run.tools[0]! - run.toolsRunning[0]!);
      const t = ten[transport];
      const perCall = t.gateway.map((run) => run.endToEnd / CALLS);
      const directPerCall = t.direct.map((total) => total / CALLS);
      const readPerCall = ten.read.map((run) => run.endToEnd / CALLS);
      const tenActivities = t.gateway.flatMap((run) => run.tools);
      const f = first[transport];
      const pooled = f.pooled.map((run) => run.toFirstResult);
      const cold = f.fresh.map((run) => run.toFirstResult);
      rows.push(
        ...versus(
          `${transport}: one echo, runTool activity (A) vs direct SDK call (B)`,
          activity,
          s.direct,
        ),
        part(`${transport}:   A dispatch (scheduled -> started) p50`, dispatch),
        ...versus(
          `${transport}: one echo, gateway code in process (C) vs direct (B)`,
          s.inProcess,
          s.direct,
        ),
        ...versus(
          `${transport}: per call in a delegation of ${CALLS} vs ${CALLS} direct calls`,
          perCall,
          directPerCall,
        ),
        part(`${transport}:   its runTool activities p50`, tenActivities),
        ...versus(
          `${transport}: per call in a delegation of ${CALLS} vs ${CALLS} built-in reads`,
          perCall,
          readPerCall,
        ),
        ...versus(`${transport}: first call, must connect vs pooled`, cold, pooled),
        ...versus(
          `${transport}: first call, must connect vs a plain client's cold connect + call (${transport === 'stdio' ? 'new server process' : 'new session'})`,
          cold,
          f.cold,
        ),
        part(
          `${transport}:   resolveAgent p50, pooled`,
          f.pooled.map((run) => run.resolve),
        ),
        part(
          `${transport}:   resolveAgent p50, must connect`,
          f.fresh.map((run) => run.resolve),
        ),
      );
    }
    for (const transport of ['stdio', 'http'] as const) {
      const w = freshWorker[transport];
      const firstCall = (runs: FreshWorkerRun[]) => runs.map((run) => run.timeline.toFirstResult);
      const pooled = freshWorker.pooled[transport].map((run) => run.toFirstResult);
      const doneAtReady = w.atReady.filter((run) => run.connectedAtReady).length;
      rows.push(
        ...versus(
          `${transport}: fresh worker, first delegation at ready (connect-ahead done ${doneAtReady}/${w.atReady.length}) vs pooled`,
          firstCall(w.atReady),
          pooled,
        ),
        ...versus(
          `${transport}: fresh worker, first delegation once its server connected vs pooled`,
          firstCall(w.connected),
          pooled,
        ),
        ...versus(
          `${transport}: fresh worker, first delegation once its server connected vs one built-in read there, end to end`,
          w.connected.map((run) => run.timeline.endToEnd),
          freshWorker.read.map((run) => run.timeline.endToEnd),
        ),
        part(
          `${transport}:   fresh worker ready (startWorkerRuntime) p50`,
          [...w.atReady, ...w.connected].map((run) => run.readyMs),
        ),
        part(
          `${transport}:   resolveAgent p50, first delegation at ready`,
          w.atReady.map((run) => run.timeline.resolve),
        ),
        ...versus(
          `${transport}: fresh worker, connect-ahead connected (from start) vs plain cold connect + call`,
          [...w.atReady, ...w.connected].map((run) => run.connectedMs),
          freshWorker.cold[transport],
        ),
      );
    }
    if (readActivities.length > 0) {
      rows.push(
        part(`built-in read runTool activity p50 (delegations of ${CALLS})`, readActivities),
      );
    }
    return {
      name: `MCP gateway (fixture server echo) vs a direct SDK client; first call pooled vs must-connect (${PAIRS} alternating samples each, ${WARMUP} warm-up)`,
      rows,
      notes: [
        'A = the runTool activity of a one-call delegation, from history (scheduled -> completed); B = an SDK Client already connected, same process; C = the mcp_call implementation in process, no Temporal',
        'first call = WorkflowExecutionStarted -> first runTool completed; must connect = a server the pool never saw (its handshake lands in resolveAgent)',
        "plain cold connect + call = a new SDK Client: connect (stdio: spawning the same tsx-run fixture server) and one echo; deputy's must-connect path also lists the tools and runs the delegation's workflow around it",
        `fresh worker = a second startWorkerRuntime per sample (own task queue, shared bundle, ${FRESH_WORKER_PAIRS} samples): "at ready" starts its first delegation the moment startWorkerRuntime resolved (the worker polls; connect-ahead done in the count shown), "once its server connected" when its pool first reports the server connected; connect-ahead connected = ms from the start of startWorkerRuntime until the pool logged the server connected (it may be before ready); "one built-in read there" = a fresh worker's first delegation of one read call (the worker's own first-delegation cost, no MCP), compared end to end as reads may run as local activities`,
        'built-in reads may run as local activities (no activity events): then no runTool activity figure for them',
      ],
    };
  } finally {
    await stopAll();
  }
}

/** The first delegation on a worker started for it (section 3). */
interface FreshWorkerRun {
  timeline: Timeline;
  /** startWorkerRuntime, called to resolved, ms. */
  readyMs: number;
  /** From the start of startWorkerRuntime until its pool had the server connected, ms. */
  connectedMs: number;
  /** Whether connect-ahead had connected the server when startWorkerRuntime resolved. */
  connectedAtReady: boolean;
}

/** The activity timings of one finished delegation, checking each echo answered the task. */
async function readTimeline(
  client: Client,
  workflowId: string,
  /** What every call must have answered (the echo of the task); null: not checked. */
  task: string | null,
  expectedCalls: number,
): Promise<Omit<Timeline, 'endToEnd'>> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const startedAt = eventMs(events[0]?.eventTime);
  const scheduled = new Map<string, { type: string; at: number }>();
  const startedById = new Map<string, number>();
  const tools: number[] = [];
  const toolsRunning: number[] = [];
  let resolve = Number.NaN;
  let firstResultAt = Number.NaN;
  // Read-class tools may run as local activities: a marker each, no activity events to time.
  let localCalls = 0;
  for (const event of events) {
    if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') localCalls++;
    const id = String(event.eventId);
    const at = eventMs(event.eventTime);
    const scheduledAttributes = event.activityTaskScheduledEventAttributes;
    if (scheduledAttributes) {
      scheduled.set(id, { type: scheduledAttributes.activityType?.name ?? '', at });
    }
    const startedAttributes = event.activityTaskStartedEventAttributes;
    if (startedAttributes) startedById.set(String(startedAttributes.scheduledEventId), at);
    const completed = event.activityTaskCompletedEventAttributes;
    if (!completed) continue;
    const scheduledId = String(completed.scheduledEventId);
    const from = scheduled.get(scheduledId);
    if (from?.type === 'resolveAgent') resolve = at - from.at;
    if (from?.type !== 'runTool') continue;
    const data = completed.result?.payloads?.[0]?.data;
    const outcome = JSON.parse(Buffer.from(data ?? []).toString('utf8')) as {
      content: string;
      isError: boolean;
    };
    expect(
      !outcome.isError && (task === null || outcome.content === task),
      `a tool call answered ${JSON.stringify(outcome.content).slice(0, 300)}`,
    );
    tools.push(at - from.at);
    toolsRunning.push(at - (startedById.get(scheduledId) ?? Number.NaN));
    if (Number.isNaN(firstResultAt)) firstResultAt = at;
  }
  expect(
    tools.length + localCalls === expectedCalls,
    `${tools.length} tool calls (+${localCalls} local), not ${expectedCalls}`,
  );
  return { toFirstResult: firstResultAt - startedAt, resolve, tools, toolsRunning };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { installQuietRuntime } = await import('./quiet-runtime.js');
  installQuietRuntime();
  const { printReports } = await import('./report.js');
  printReports([await benchMcpGateway()], 'mcp');
}
