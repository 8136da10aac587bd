/**
 * A real model in deputy's loop: the local Qwen2.5-Coder-1.5B on llama.cpp, or the
 * endpoint DEPUTY_SMOKE_MODEL names (test/smoke/model-setup.ts), driving real delegations on a
 * real Temporal dev server with a real worker. The checks are about deputy's mechanics (a tool
 * runs through policy, a card opens and its decision applies, a denial's reason reaches the
 * model, `Task` starts a delegate, usage is counted), never about wording: the one thing asked of
 * the model's text is a fact it can only have from the file it read. Each check's row (model and
 * endpoint, rounds, tokens, wall time) is printed in a table at the end of the run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addUsage, type DelegationResult, type UsageTotals } from '../../src/shared/delegation.js';
import { createHarness, eventually, type Harness } from '../integration/support/harness.js';
import {
  DELEGATION_WAIT_MS,
  finished,
  modelInputs,
  settled,
  startDelegation,
  stopAndResult,
} from './support/smoke-checks.js';
import { describeEndpoint } from './support/smoke-endpoint.js';
import { measured, type CheckFigures } from './support/smoke-report.js';
import { FACT, FACT_FILE, smokeWorkspace } from './support/smoke-workspace.js';

const main = inject('smokeEndpoint');
const anthropic = inject('smokeAnthropicEndpoint');
const reportDir = inject('smokeReportDir');
const onMain = describeEndpoint(main);

let harness: Harness;
/** Every finished delegation's result, for the usage check. */
const results: Array<{ check: string; result: DelegationResult }> = [];

beforeAll(async () => {
  harness = await createHarness(smokeWorkspace(main, anthropic));
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

function record(figures: CheckFigures, check: string, result: DelegationResult): void {
  figures.rounds = result.roundsUsed;
  figures.usage = result.usage ?? null;
  results.push({ check, result });
}

/** Reads FACT_FILE with `agent` and checks the read went through policy and the answer cites it. */
async function readAndAnswer(agent: string, check: string, figures: CheckFigures): Promise<void> {
  const id = await startDelegation(
    harness.delegations,
    agent,
    `What is the launch code written in the file ${FACT_FILE}?`,
  );
  const result = await finished(harness.delegations, id);
  record(figures, check, result);
  const reads = (await harness.delegations.events(id, -1)).flatMap((event) =>
    event.type === 'tool-call' && event.tool === 'read' ? [event] : [],
  );
  // The call went through policy (allowed: a read-only agent needs no card) and the tool ran.
  expect(reads.length).toBeGreaterThan(0);
  expect(reads[0]).toMatchObject({ verdict: 'allow' });
  expect(reads[0]!.arguments).toContain(FACT_FILE);
  expect(reads[0]!.summary).toContain(FACT);
  expect(result.status).toBe('completed');
  expect(result.text).toContain(FACT);
}

describe(`a real model in the loop: ${onMain}`, () => {
  it('a read-only agent reads a file and answers with a fact only that file holds', async () => {
    await measured(reportDir, 'read a file, answer', onMain, (figures) =>
      readAndAnswer('reader', 'read a file, answer', figures),
    );
  });

  it('a writing agent opens a card, is approved, and the file exists', async () => {
    await measured(reportDir, 'write on approval', onMain, async (figures) => {
      const id = await startDelegation(
        harness.delegations,
        'scribe',
        'Create the file greeting.txt containing the text: hello from deputy',
      );
      const parked = await settled(harness.delegations, id);
      if (parked.kind !== 'parked')
        throw new Error(`finished without a card: ${parked.result.text}`);
      expect(parked.card.tool).toBe('write');
      const path = String(parked.card.arguments.path);
      expect(path).toMatch(/greeting\.txt$/);
      expect(existsSync(join(harness.workspace, path))).toBe(false);

      await harness.delegations.decide(parked.card.id, { decision: 'approve', decidedBy: 'smoke' });
      // The file is there as soon as the approved call ran, whatever the model does next.
      await eventually(
        async () => (existsSync(join(harness.workspace, path)) ? true : undefined),
        `${path} to be written`,
        DELEGATION_WAIT_MS,
      );
      expect(readFileSync(join(harness.workspace, path), 'utf8')).toBe(
        String(parked.card.arguments.content),
      );
      const after = await settled(harness.delegations, id);
      const result =
        after.kind === 'finished' ? after.result : await stopAndResult(harness.delegations, id);
      record(figures, 'write on approval', result);
    });
  });

  it("a denial's reason reaches the model's next turn", async () => {
    const reason = 'Denied by the smoke test: notes go in drafts/, ref 5531';
    await measured(reportDir, 'denial reaches the model', onMain, async (figures) => {
      const id = await startDelegation(
        harness.delegations,
        'scribe',
        'Create the file notes.txt containing the text: first note',
      );
      const parked = await settled(harness.delegations, id);
      if (parked.kind !== 'parked')
        throw new Error(`finished without a card: ${parked.result.text}`);
      await harness.delegations.decide(parked.card.id, {
        decision: 'deny',
        reason,
        decidedBy: 'smoke',
      });
      // The model's next turn: it ends the run or asks for something else (then it is stopped).
      const after = await settled(harness.delegations, id);
      const result =
        after.kind === 'finished' ? after.result : await stopAndResult(harness.delegations, id);
      record(figures, 'denial reaches the model', result);
      expect(result.deniedCalls).toContainEqual({ tool: 'write', by: 'human', reason });
      expect(existsSync(join(harness.workspace, String(parked.card.arguments.path)))).toBe(false);
      // What the model was sent on the round after the denial, as the history recorded it.
      const inputs = await modelInputs(harness.client, parked.state.workflowId);
      expect(inputs.length).toBeGreaterThanOrEqual(2);
      const denial = inputs[1]!.find((entry) => entry.role === 'tool');
      expect(denial).toMatchObject({ toolName: 'write', isError: true });
      expect(denial?.role === 'tool' ? denial.content : '').toContain(reason);
    });
  });

  it("a session's main agent hands a task to a delegate with Task", async () => {
    await measured(reportDir, 'session Task to a delegate', onMain, async (figures) => {
      const { sessionId } = await harness.sessions.start({
        agent: 'lead',
        message: `Use the Task tool to ask the reader agent: what is the launch code written in the file ${FACT_FILE}?`,
        caller: { id: null, roles: [] },
        options: {},
      });
      try {
        const reply = await eventually(
          async () =>
            (await harness.sessions.events(sessionId, 0)).find((event) => event.type === 'reply'),
          'the session to reply',
          DELEGATION_WAIT_MS,
          500,
        );
        const state = await harness.sessions.get(sessionId);
        figures.rounds =
          state.roundsUsed + state.tasks.reduce((sum, task) => sum + task.roundsUsed, 0);
        figures.usage = state.usage ?? null;
        const answered = reply.type === 'reply' ? reply.text : '';
        expect(
          state.tasks.map((task) => [task.agent, task.status]),
          `the main agent answered without a finished Task: ${answered}`,
        ).toContainEqual(['reader', 'completed']);
        const task = state.tasks.find((each) => each.agent === 'reader')!;
        // The delegate did its own work: it read the file with its own tool.
        const reads = (await harness.delegations.events(task.taskId, -1)).filter(
          (event) => event.type === 'tool-call' && event.tool === 'read',
        );
        expect(reads.length).toBeGreaterThan(0);
        // The session counts its own calls and the delegate's.
        expect(state.usage!.modelCalls).toBeGreaterThan(task.result!.usage!.modelCalls);
        results.push({ check: 'session Task: the delegate', result: task.result! });
      } finally {
        await harness.sessions.stop(sessionId);
      }
    });
  });

  it.skipIf(anthropic === null)(
    `the Anthropic Messages API runs a delegation: ${anthropic === null ? 'no Anthropic endpoint' : describeEndpoint(anthropic)}`,
    async () => {
      await measured(reportDir, 'Anthropic /v1/messages', describeEndpoint(anthropic!), (figures) =>
        readAndAnswer('anthropic-reader', 'Anthropic /v1/messages', figures),
      );
    },
  );

  it('usage is counted for every model call', async () => {
    await measured(reportDir, 'usage counted', onMain, async (figures) => {
      expect(results.length).toBeGreaterThan(0);
      let total: UsageTotals | null = null;
      for (const { check, result } of results) {
        const usage = result.usage;
        expect(usage, check).toBeDefined();
        expect(usage!.modelCalls, check).toBe(result.roundsUsed);
        expect(usage!.modelCallsWithoutUsage, check).toBe(0);
        expect(usage!.inputTokens, check).toBeGreaterThan(0);
        expect(usage!.outputTokens, check).toBeGreaterThan(0);
        total = total === null ? { ...usage! } : addUsage(total, usage!);
      }
      figures.rounds = results.reduce((sum, { result }) => sum + result.roundsUsed, 0);
      figures.usage = total;
    });
  });
});
