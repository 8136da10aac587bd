/**
 * What the Temporal UI shows of a delegation, read the way the UI reads it on the real
 * dev server: the summary from describe, the details from the built-in metadata query. A run
 * parks on two cards (and carries DeputyParkedSince while it waits), one is approved and one
 * denied, and it finishes; a secret-looking part of its task never reaches the summary.
 */
import { randomBytes } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_CALLER } from '../../src/shared/caller.js';
import { cardIdFor } from '../../src/shared/delegation.js';
import { decideCardUpdate } from '../../src/shared/workflow-contract/messages.js';
import { PARKED_SINCE_ATTRIBUTE } from '../../src/shared/workflow-contract/search-attributes.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { leadAgent } from './support/session-agents.js';

const files = {
  ...leadAgent('  - text: Hello there.\n'),
  '.subagents/agents/pair-writer.md': `---
name: pair-writer
description: Writes two files, asking first
model: scripted:scripts/pair-writer.yaml
tools: [write]
---
Write.
`,
  'scripts/pair-writer.yaml': `turns:
  - text: Two files, please.
    toolCalls:
      - { name: write, arguments: { path: a.txt, content: a } }
      - { name: write, arguments: { path: b.txt, content: b } }
  - text: Wrote what I was allowed to.
`,
};

/** Shaped like an OpenAI key, so the masker knows it without any configuration. */
const SECRET = `sk-${randomBytes(16).toString('hex')}`;

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness(files);
});

afterAll(async () => {
  await harness?.close();
});

/** The details the UI shows: the `__temporal_workflow_metadata` query's `currentDetails`. */
async function details(handle: WorkflowHandle): Promise<string> {
  const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

describe('the Temporal UI', () => {
  it('shows a one-line masked summary and details that follow the run', async () => {
    const handle = await harness.start(
      'pair-writer',
      `Write a.txt and b.txt with key ${SECRET}\nthen stop`,
    );
    const summary = await (await handle.describe()).staticSummary();
    expect(summary).toBe('pair-writer: Write a.txt and b.txt with key __redacted__ then stop');

    const parked = await eventually(async () => {
      const text = await details(handle);
      return text.startsWith('**parked**') ? text : undefined;
    }, 'parked details');
    const delegationId = handle.workflowId.split('/').pop()!;
    const cardIds = [cardIdFor(delegationId, 1), cardIdFor(delegationId, 2)];
    expect(parked).toMatch(/^\*\*parked\*\* in round 1 of \d+ on 2 cards, waiting for a decision:/);
    const lines = parked.split('\n').slice(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^- `write` `path=a\.txt content=a` \(card (\S+)\), waiting since /);
    expect(lines[0]).toContain(`(card ${cardIds[0]})`);
    expect(lines[0]).toMatch(/waiting since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(lines[1]).toMatch(/^- `write` `path=b\.txt content=b` \(card (\S+)\)/);
    expect(lines[1]).toContain(`(card ${cardIds[1]})`);

    // "Parked for over an hour" as docs/operations.md gives it: DeputyParkedSince, the oldest
    // pending card's opening, listed by a query on the time (here: parked before a minute from now).
    const [oldest] = (await harness.delegations.get(delegationId)).pendingCards;
    const since = (await handle.describe()).typedSearchAttributes.get(PARKED_SINCE_ATTRIBUTE);
    expect(since?.toISOString()).toBe(new Date(oldest!.openedAt).toISOString());
    const cutoff = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const listed = await eventually(async () => {
      const ids: string[] = [];
      for await (const run of harness.client.workflow.list({
        query: `ExecutionStatus = 'Running' AND DeputyParkedSince < '${cutoff}' AND WorkflowId = '${handle.workflowId}'`,
      })) {
        ids.push(run.workflowId);
      }
      return ids.length > 0 ? ids : undefined;
    }, 'the parked-since query to list it');
    expect(listed).toEqual([handle.workflowId]);

    await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: cardIds[0]!, decision: 'approve', decidedBy: 'tester' }],
    });
    const oneLeft = await details(handle);
    expect(oneLeft).toContain('on 1 card,');
    expect(oneLeft).not.toContain(cardIds[0]!);
    expect(oneLeft).toContain(`(card ${cardIds[1]!})`);

    await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: cardIds[1]!, decision: 'deny', decidedBy: 'tester' }],
    });
    expect((await handle.result()).status).toBe('completed');
    expect(await details(handle)).toBe('**finished**: completed, 2 rounds, denied: write');
    // Not parked any more: the attribute is gone.
    const after = (await handle.describe()).typedSearchAttributes.get(PARKED_SINCE_ATTRIBUTE);
    expect(after).toBeUndefined();
  });

  it('shows a session by its first message, then waiting for the next one', async () => {
    const { workflowId } = await harness.sessions.start({
      agent: 'lead',
      message: `Say hello\nwith ${SECRET}`,
      caller: ANONYMOUS_CALLER,
      options: {},
    });
    const handle = harness.client.workflow.getHandle(workflowId);
    const summary = await (await handle.describe()).staticSummary();
    expect(summary).toBe('session of lead: Say hello with __redacted__');
    await eventually(
      async () =>
        (await details(handle)) === '**idle**, waiting for a message' ? true : undefined,
      'idle details',
    );
    await handle.terminate('test over');
  });
});
