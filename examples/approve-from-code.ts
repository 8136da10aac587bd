/**
 * Start a background delegation and approve its card from code.
 *
 *   npm start                                  # deputy dev: Temporal, a worker, the API
 *   npx tsx examples/approve-from-code.ts      # DEPUTY_URL, DEPUTY_TOKEN when not the defaults
 *
 * The built-in `demo` agent (scripted model) reads README.md and asks to write hello.txt.
 */
import { createDeputyClient } from 'deputy/client';

const deputy = createDeputyClient({
  url: process.env.DEPUTY_URL ?? 'http://127.0.0.1:4780',
  ...(process.env.DEPUTY_TOKEN === undefined ? {} : { token: process.env.DEPUTY_TOKEN }),
});

const started = await deputy.delegations.start({
  agent: 'demo',
  task: 'Greet the workspace',
  background: true,
});
console.log(`started ${started.delegationId}`);

for await (const event of deputy.delegations.events(started.delegationId)) {
  if (event.type === 'card-opened') {
    console.log(`approving ${event.card.tool} ${JSON.stringify(event.card.arguments.path)}`);
    await deputy.cards.decide(
      event.card.id,
      'approve',
      'approved by examples/approve-from-code.ts',
    );
  }
  if (event.type === 'finished') console.log(`${event.result.status}: ${event.result.text}`);
}
