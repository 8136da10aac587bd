/**
 * Usage and token budgets, on the real dev server with the scripted model (whose
 * counts are deterministic, src/models/scripted-model.ts): a budget stops a delegation before
 * the model call past it, like maxTurns, with a notice; the totals reach the state, the result,
 * the DeputyTokens search attribute and the listing; a delegation's own budget wins over the
 * definition's; a bad one is refused.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { TOKENS_ATTRIBUTE } from '../../src/shared/workflow-contract/search-attributes.js';
import { apiOf, timedRequest } from './support/app-request.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const script = (prefix: string) => `turns:
  - text: First.
    toolCalls: [{ name: write, arguments: { path: ${prefix}-1.txt, content: "one\\n" } }]
  - text: Second.
    toolCalls: [{ name: write, arguments: { path: ${prefix}-2.txt, content: "two\\n" } }]
  - text: Done.
`;

const agent = (name: string, extra: string) => ({
  [`.subagents/agents/${name}.md`]: `---\nname: ${name}\ndescription: writes two files\nmodel: scripted:scripts/${name}.yaml\ntools: [write]\napprovalMode: auto-in-workspace\n${extra}---\nWrite.\n`,
  [`scripts/${name}.yaml`]: script(name),
});

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness({ ...agent('frugal', 'maxTokens: 1\n'), ...agent('free', '') });
});
afterAll(() => harness?.close());

describe('token budgets', () => {
  it('stops before the model call past the budget, with a notice, and reports the usage', async () => {
    const handle = await harness.start('frugal', 'Write the files');
    const result = await handle.result();
    expect(result).toMatchObject({
      status: 'completed',
      roundsUsed: 1,
      usage: { modelCalls: 1, modelCallsWithoutUsage: 0, cachedInputTokens: 0 },
    });
    expect(result.notice).toMatch(
      /^Stopped at the token budget \(maxTokens 1\) before model round 2: \d+ tokens used\.$/,
    );
    // Round 1's call ran; the model never got to ask for round 2's.
    expect(existsSync(join(harness.workspace, 'frugal-1.txt'))).toBe(true);
    expect(existsSync(join(harness.workspace, 'frugal-2.txt'))).toBe(false);
    const used = result.usage!.inputTokens + result.usage!.outputTokens;
    expect(result.notice).toContain(`${used} tokens used`);

    // The same totals for ops: the search attribute, the listing's column, the state.
    const description = await handle.describe();
    expect(description.typedSearchAttributes.get(TOKENS_ATTRIBUTE)).toBe(used);
    const row = await eventually(async () => {
      const rows = await harness.delegations.list({ agent: 'frugal' });
      return rows.find((one) => one.workflowId === handle.workflowId && one.tokens !== null);
    }, 'the listing with tokens');
    expect(row.tokens).toBe(used);
    expect((await handle.query(stateQuery)).usage).toEqual(result.usage);
  }, 30_000);

  it("takes a delegation's own maxTokens over none in the definition, and refuses a bad one", async () => {
    const unbounded = await harness.start('free', 'Write the files');
    const full = await unbounded.result();
    expect(full).toMatchObject({ roundsUsed: 3, notice: null, usage: { modelCalls: 3 } });

    // Any model call crosses a budget of one token: it stops after the first.
    const afterOne = await harness.start('free', 'Write the files', { maxTokens: 1 });
    expect(await afterOne.result()).toMatchObject({ roundsUsed: 1, usage: { modelCalls: 1 } });

    await expect(harness.start('free', 'Write', { maxTokens: 0 })).rejects.toThrow(
      /maxTokens must be a positive integer/,
    );
    const app = apiOf(harness);
    const refused = await timedRequest(app, 'POST', '/delegations', {
      agent: 'free',
      task: 'Write',
      maxTokens: 2.5,
    });
    expect(refused.status).toBe(422);
  }, 30_000);
});
