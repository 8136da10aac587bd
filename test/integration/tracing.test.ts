/**
 * Traces on the real dev server and a real Jaeger: a delegation started by a traced
 * client parks on a card, its worker process is SIGKILLed, a second worker takes it over, the card
 * is approved and the run finishes. What Jaeger holds is one trace: the start's span at its root,
 * the run's span under it, each model call as a GenAI `chat` span under its activity, the write
 * as an `execute_tool` span with its verdict and card, the wait on the card under it (opened on
 * the first worker, ended by the second), and the write's activity under the tool's span. The
 * spans the first worker sent and those the second sent name the same parents: the second
 * worker's replay made the same span ids. A session is one trace too: its `Task` child's run is
 * under the session's StartChildWorkflow span, each side's model calls under its own run.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_CALLER } from '../../src/shared/caller.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { createSessions } from '../../src/temporal/sessions/facade.js';
import { useCleanups } from '../support/cleanups.js';
import { startJaeger, type Jaeger, type JaegerSpan, type JaegerTrace } from '../support/jaeger.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { scribeAgent } from './support/scribe-agent.js';
import { readerAgent } from './support/session-agents.js';
import { killWorker, spawnWorker } from './support/worker-process.js';

const cleanups = useCleanups();
const id = randomUUID().slice(0, 8);
const TASK = `Write the note about the ${id} launch`;
const tracingEnv = (jaeger: Jaeger, service: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
  OTEL_SERVICE_NAME: service,
  // Batches leave every 100 ms: what the first worker ended is in Jaeger before it is killed.
  OTEL_BSP_SCHEDULE_DELAY: '100',
});

let jaeger: Jaeger;
let harness: Harness;
const saved = { ...process.env };

beforeAll(async () => {
  jaeger = await startJaeger();
  harness = await createHarness(
    {
      ...scribeAgent,
      ...readerAgent,
      // A main agent that asks the reader in the foreground, then answers.
      '.subagents/agents/lead.md':
        '---\nname: lead\ndescription: asks the reader\nmodel: scripted:scripts/lead.yaml\ntools: [Task]\n---\nLead.\n',
      'scripts/lead.yaml': `turns:
  - text: Asking the reader.
    toolCalls: [{ name: Task, arguments: { description: read, prompt: Read README.md, subagent_type: reader } }]
  - text: Done.
`,
    },
    { startWorker: false },
  );
  // This process is the API: its client is traced as `deputy serve`'s is.
  Object.assign(process.env, tracingEnv(jaeger, `deputy-api-${id}`));
}, 600_000);

afterAll(async () => {
  process.env = saved;
  await harness?.close();
  await jaeger?.stop();
});

describe('traces', () => {
  it('one trace with the right parents across a worker SIGKILL while parked', async () => {
    const workerService = `deputy-worker-${id}`;
    const env = tracingEnv(jaeger, workerService);
    const first = await spawnWorker(harness, cleanups, { env });
    const { client, delegations } = await tracedFacades();
    const session = `trace-${id}`;
    const { workflowId } = await delegations.start({
      agent: 'scribe',
      task: TASK,
      session,
      caller: ANONYMOUS_CALLER,
      options: {},
    });
    const card = await eventually(
      async () => (await delegations.cards({ session }))[0],
      'the write card',
    );
    // What the first worker ended (its model call) has reached Jaeger: then kill it.
    await eventually(
      async () => spansOf(await jaeger.traces(workerService)).find(named(/^chat /)),
      'the first model call in Jaeger',
      30_000,
    );
    await killWorker(first);

    await spawnWorker(harness, cleanups, { env });
    await delegations.decide(card.id, { decision: 'approve', reason: 'go', decidedBy: 'alice' });
    const result = await client.workflow.getHandle(workflowId).result();
    expect(result).toMatchObject({ status: 'completed', text: 'Wrote note.txt.' });

    const trace = await eventually(
      async () => {
        const traces = await jaeger.traces(workerService);
        const found = traces.find((one) => one.spans.some(named('RunWorkflow:delegation')));
        return found?.spans.some(named('await approval write')) ? found : undefined;
      },
      'the finished run in Jaeger',
      30_000,
    );
    // One trace holds the run: every parent its spans name is in it.
    const ofRun = (await jaeger.traces(workerService)).filter((one) =>
      one.spans.some(
        (span) =>
          tag(span, 'temporalWorkflowId') === workflowId || tag(span, 'workflowId') === workflowId,
      ),
    );
    // Besides it, the decision's own: the API's signal and the workflow handling it.
    expect(ofRun).toHaveLength(2);
    expect(ofRun.map((one) => one.traceID)).toContain(trace.traceID);
    const signal = ofRun.find((one) => one.traceID !== trace.traceID)!;
    expect(signal.spans.map((span) => span.operationName).sort()).toEqual([
      'HandleSignal:decideCard',
      'SignalWorkflow:decideCard',
    ]);
    const { parentOf, only } = spanTree(trace);
    for (const span of trace.spans) {
      const ref = parentRef(span);
      if (ref !== undefined) expect(parentOf(span), `${span.operationName}'s parent`).toBeDefined();
    }

    const start = only('StartWorkflow:delegation');
    expect(parentOf(start)).toBeUndefined();
    expect(trace.processes[start.processID]!.serviceName).toBe(`deputy-api-${id}`);
    const run = only('RunWorkflow:delegation');
    expect(parentOf(run)).toBe(start);

    // Two model rounds, each: the worker's RunActivity under the run, the chat under it. No
    // StartActivity spans (src/workflows/tracing/interceptors.ts).
    expect(trace.spans.filter(named(/^StartActivity:/))).toEqual([]);
    const chats = trace.spans.filter(named(/^chat /));
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      const activity = parentOf(chat)!;
      expect(activity.operationName).toBe('RunActivity:callModel');
      expect(parentOf(activity)).toBe(run);
      expect(tag(chat, 'gen_ai.operation.name')).toBe('chat');
      expect(tag(chat, 'gen_ai.provider.name')).toBe('deputy.scripted');
      expect(tag(chat, 'gen_ai.usage.input_tokens')).toBeGreaterThan(0);
      expect(tag(chat, 'gen_ai.usage.output_tokens')).toBeGreaterThan(0);
      expect(tag(chat, 'gen_ai.usage.cache_read.input_tokens')).toBe(0);
    }
    const finishes = chats
      .sort((a, b) => a.startTime - b.startTime)
      .map((chat) => tag(chat, 'gen_ai.response.finish_reasons'));
    expect(finishes).toEqual([JSON.stringify(['tool_calls']), JSON.stringify(['stop'])]);

    const tool = only('execute_tool write');
    expect(parentOf(tool)).toBe(run);
    expect(tag(tool, 'gen_ai.tool.name')).toBe('write');
    expect(tag(tool, 'deputy.tool.verdict')).toBe('ask');
    expect(tag(tool, 'deputy.card.id')).toBe(card.id);
    expect(tag(tool, 'deputy.tool.outcome')).toBe('ok');
    const wait = only('await approval write');
    expect(parentOf(wait)).toBe(tool);
    expect(tag(wait, 'deputy.card.id')).toBe(card.id);
    expect(tag(wait, 'deputy.card.decision')).toBe('approved');
    expect(tag(wait, 'deputy.card.decided_by')).toBe('alice');
    const write = only('RunActivity:runTool');
    expect(parentOf(write)).toBe(tool);

    // Across the kill: the first chat came from the first worker, the run's end and the wait's
    // from the second, and still they name the same parents.
    const pid = (span: JaegerSpan) =>
      trace.processes[span.processID]!.tags.find((one) => one.key === 'process.pid')?.value;
    const [firstChat, secondChat] = chats;
    expect(pid(firstChat!)).toBe(first.pid);
    expect(pid(secondChat!)).not.toBe(first.pid);
    expect(pid(run)).not.toBe(first.pid);
    expect(pid(wait)).toBe(pid(run));

    // No prompt or answer text unless switched on; and no memo copied onto spans.
    expect(JSON.stringify(trace)).not.toContain(`${id} launch`);
    expect(JSON.stringify(trace)).not.toContain('noted');
  }, 180_000);

  it("a session and its Task child: one trace, the child's run under the session's start of it", async () => {
    const workerService = `deputy-session-worker-${id}`;
    await spawnWorker(harness, cleanups, { env: tracingEnv(jaeger, workerService) });
    const { sessions } = await tracedFacades();
    const { sessionId } = await sessions.start({
      agent: 'lead',
      message: 'Ask the reader.',
      caller: ANONYMOUS_CALLER,
      options: {},
    });
    const answered = await eventually(
      async () => {
        const state = await sessions.get(sessionId);
        return state.status === 'idle' && state.tasks[0]?.status === 'completed'
          ? state
          : undefined;
      },
      'the session answering after its child',
      60_000,
    );
    expect(answered.tasks.map((one) => one.agent)).toEqual(['reader']);
    // A session's run lasts until it is stopped; its span ends (and is sent) then.
    await sessions.stop(sessionId);

    const trace = await eventually(
      async () => {
        const found = (await jaeger.traces(workerService)).find((one) =>
          one.spans.some(named('RunWorkflow:session')),
        );
        // Complete once both sides' model calls are in: the lead's two and the reader's two.
        return found !== undefined && found.spans.filter(named(/^chat /)).length === 4
          ? found
          : undefined;
      },
      "the session's trace in Jaeger",
      30_000,
    );
    const { parentOf, only } = spanTree(trace);
    const session = only('RunWorkflow:session');
    const started = parentOf(session)!;
    expect(started.operationName).toMatch(/^(StartWorkflow|SignalWithStartWorkflow):session$/);
    expect(parentOf(started)).toBeUndefined();
    expect(trace.processes[started.processID]!.serviceName).toBe(`deputy-api-${id}`);

    const task = only('execute_tool Task');
    expect(parentOf(task)).toBe(session);
    const startChild = only('StartChildWorkflow:delegation');
    expect(parentOf(startChild)).toBe(task);
    const child = only('RunWorkflow:delegation');
    expect(parentOf(child)).toBe(startChild);
    const read = only('execute_tool read');
    expect(parentOf(read)).toBe(child);

    // Each model call under its own run's activity: two the lead made, two the reader did.
    const runOf = (chat: JaegerSpan) => parentOf(parentOf(chat)!);
    const chats = trace.spans.filter(named(/^chat /));
    expect(chats.filter((chat) => runOf(chat) === session)).toHaveLength(2);
    expect(chats.filter((chat) => runOf(chat) === child)).toHaveLength(2);
  }, 180_000);
});

/** This process's facades on a traced client, as `deputy serve` has them. */
async function tracedFacades() {
  const temporal = await connectTemporal(harness.config);
  cleanups.push(() => temporal.close());
  const delegations = createDelegations(temporal.client, {
    namespace: harness.config.temporal.namespace,
    taskQueue: harness.taskQueue,
  });
  const sessions = createSessions(temporal.client, delegations, { taskQueue: harness.taskQueue });
  return { client: temporal.client, delegations, sessions };
}

/** A trace's span tree: a span's parent within the trace, and the one span of a name. */
function spanTree(trace: JaegerTrace) {
  const byId = new Map(trace.spans.map((span) => [span.spanID, span]));
  return {
    parentOf(span: JaegerSpan): JaegerSpan | undefined {
      const ref = parentRef(span);
      return ref === undefined ? undefined : byId.get(ref.spanID);
    },
    only(name: string | RegExp): JaegerSpan {
      const found = trace.spans.filter(named(name));
      expect(found, String(name)).toHaveLength(1);
      return found[0]!;
    },
  };
}

function parentRef(span: JaegerSpan) {
  return span.references.find((one) => one.refType === 'CHILD_OF');
}

function spansOf(traces: JaegerTrace[]): JaegerSpan[] {
  return traces.flatMap((one) => one.spans);
}

function named(name: string | RegExp): (span: JaegerSpan) => boolean {
  return (span) =>
    typeof name === 'string' ? span.operationName === name : name.test(span.operationName);
}

function tag(span: JaegerSpan, key: string): unknown {
  return span.tags.find((one) => one.key === key)?.value;
}
