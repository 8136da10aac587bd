/**
 * Create an agent, run it, and delete it.
 *
 *   npm start
 *   npx tsx examples/agent-lifecycle.ts
 *
 * The agent runs on `model: default` (models.default; without a configured model, the scripted
 * fallback that says it is a script).
 */
import { createDeputyClient, DeputyClientError } from 'deputy/client';

const deputy = createDeputyClient({
  url: process.env.DEPUTY_URL ?? 'http://127.0.0.1:4780',
  ...(process.env.DEPUTY_TOKEN === undefined ? {} : { token: process.env.DEPUTY_TOKEN }),
});
const name = `example-${Date.now().toString(36)}`;

const agent = await deputy.agents.create({
  name,
  description: 'Answers one question from the workspace README',
  systemPrompt: 'Read README.md and answer the question in one sentence.\n',
  model: 'default',
  tools: ['read'],
});
console.log(`created ${agent.name} (${agent.level})`);
try {
  const run = await deputy.delegations.start(
    { agent: name, task: 'What is this project?' },
    { wait: true },
  );
  console.log(`${run.status}: ${run.result?.text ?? run.message ?? ''}`);
} finally {
  await deputy.agents.delete(name);
  const gone = await deputy.agents.get(name).catch((error: unknown) => error);
  console.log(gone instanceof DeputyClientError ? `deleted (${gone.code})` : 'still there?');
}
