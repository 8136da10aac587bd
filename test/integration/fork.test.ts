/**
 * Fork from a round, on the real dev server: a fork from round 3 of a 6-round
 * scripted delegation starts from the original's transcript (read from its history, tool
 * results included), runs no tool of rounds 1-3 again, goes on under another definition, is
 * linked to the original (search attribute and memo), and leaves the original untouched.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallModelInput } from '../../src/shared/workflow-contract/activities.js';
import type { DelegationResult } from '../../src/shared/delegation.js';
import { FORKED_FROM_ATTRIBUTE } from '../../src/shared/workflow-contract/search-attributes.js';
import { apiOf, timedRequest } from './support/app-request.js';
import { createHarness, type Harness } from './support/harness.js';

const turns = (prefix: string, from: number, final: string) =>
  `turns:\n${Array.from(
    { length: 6 },
    (_, index) =>
      `  - text: Round ${index + 1}.\n    toolCalls: [{ name: write, arguments: { path: ${index + 1 >= from ? prefix : 'six'}-${index + 1}.txt, content: "${prefix} round ${index + 1}\\n" } }]`,
  ).join('\n')}\n  - text: ${final}\n`;

const agent = (name: string, script: string) => ({
  [`.subagents/agents/${name}.md`]: `---\nname: ${name}\ndescription: writes a file a round\nmodel: scripted:scripts/${name}.yaml\ntools: [write]\napprovalMode: auto-in-workspace\n---\nWrite.\n`,
  [`scripts/${name}.yaml`]: script,
});

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness({
    ...agent('six', turns('six', 1, 'six done')),
    // The same first three turns; different from round 4 on.
    ...agent('six-v2', turns('v2', 4, 'v2 done')),
  });
});
afterAll(() => harness?.close());

type Events = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>;

function scheduled(events: Events, type: string): Record<string, unknown>[] {
  return events.flatMap((event) => {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (attributes?.activityType?.name !== type) return [];
    const data = attributes.input?.payloads?.[0]?.data ?? new Uint8Array();
    return [JSON.parse(Buffer.from(data).toString('utf8')) as Record<string, unknown>];
  });
}

describe('fork from a round', () => {
  it('goes on from round 3 under a new definition, re-running no tool, linked to the original', async () => {
    const original = await harness.start('six', 'Write six files');
    const first = (await original.result()) as DelegationResult;
    expect(first).toMatchObject({ status: 'completed', text: 'six done', roundsUsed: 7 });
    const originalEvents = (await original.fetchHistory()).events?.length;
    const originalId = original.workflowId.split('/').pop()!;

    const forked = await harness.delegations.fork(originalId, {
      fromRound: 3,
      agent: 'six-v2',
      caller: { id: null, roles: [] },
    });
    expect(forked).toMatchObject({ agent: 'six-v2', session: 'test' });
    const handle = harness.client.workflow.getHandle(forked.workflowId);
    const result = (await handle.result()) as DelegationResult;
    // Rounds count on from the original's third: 3 kept, then v2's rounds 4-6 and its answer.
    expect(result).toMatchObject({ status: 'completed', text: 'v2 done', roundsUsed: 7 });
    for (const round of [4, 5, 6]) {
      expect(readFileSync(join(harness.workspace, `v2-${round}.txt`), 'utf8')).toBe(
        `v2 round ${round}\n`,
      );
    }

    const events = (await handle.fetchHistory()).events ?? [];
    // No tool of rounds 1-3 ran again: the fork's only tool calls are v2's three writes.
    const tools = scheduled(events, 'runTool').map(
      (input) => (input.call as { arguments: { path: string } }).arguments.path,
    );
    expect(tools).toEqual(['v2-4.txt', 'v2-5.txt', 'v2-6.txt']);
    expect(scheduled(events, 'resolveAgent')).toMatchObject([{ agent: 'six-v2' }]);
    // Its first model call was sent the original's transcript: three answers, three results.
    const [firstCall] = scheduled(events, 'callModel') as unknown as CallModelInput[];
    expect(firstCall!.transcript.filter((entry) => entry.role === 'assistant')).toHaveLength(3);
    expect(firstCall!.transcript.filter((entry) => entry.role === 'tool')).toHaveLength(3);
    expect(firstCall!.transcript[0]).toEqual({ role: 'user', content: 'Write six files' });

    const description = await handle.describe();
    expect(description.typedSearchAttributes.get(FORKED_FROM_ATTRIBUTE)).toBe(originalId);
    expect(description.memo?.forkedFrom).toEqual({
      delegationId: originalId,
      workflowId: original.workflowId,
      fromRound: 3,
    });
    // The original is untouched.
    expect((await original.fetchHistory()).events?.length).toBe(originalEvents);
    expect(readFileSync(join(harness.workspace, 'six-4.txt'), 'utf8')).toBe('six round 4\n');

    // A round with nothing after it, or no round at all, is refused; over HTTP too.
    await expect(
      harness.delegations.fork(originalId, { fromRound: 7, caller: { id: null, roles: [] } }),
    ).rejects.toThrow(/has no round after round 7 to redo/);
    await expect(
      harness.delegations.fork(originalId, { fromRound: 0, caller: { id: null, roles: [] } }),
    ).rejects.toThrow(/fromRound must be a whole number of 1 or more/);
    const app = apiOf(harness);
    const overHttp = await timedRequest(app, 'POST', `/delegations/${originalId}/fork`, {
      fromRound: 6,
    });
    expect(overHttp).toMatchObject({
      status: 201,
      body: { agent: 'six', status: 'running', links: { self: expect.any(String) } },
    });
    const extra = await timedRequest(app, 'POST', `/delegations/${originalId}/fork`, {
      fromRound: 2,
      tools: ['bash'],
    });
    expect(extra.status).toBe(422);
    const unknown = await timedRequest(app, 'POST', '/delegations/d-nosuchthing/fork', {
      fromRound: 1,
    });
    expect(unknown.status).toBe(404);
  }, 60_000);
});
