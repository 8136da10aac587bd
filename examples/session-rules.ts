/**
 * Follow a session's stream and answer every card, its own or its children's, with a rule:
 * writes under docs/ are approved, everything else is denied with a reason the model reads.
 *
 *   npm start
 *   npx tsx examples/session-rules.ts
 *
 * The built-in `demo-lead` main agent (scripted) hands the demo task to `demo`, whose write of
 * hello.txt is outside docs/: the rule denies it, and the session's reply says so.
 */
import { createDeputyClient, type ApprovalCard } from 'deputy/client';

const deputy = createDeputyClient({
  url: process.env.DEPUTY_URL ?? 'http://127.0.0.1:4780',
  ...(process.env.DEPUTY_TOKEN === undefined ? {} : { token: process.env.DEPUTY_TOKEN }),
});

function rule(card: ApprovalCard): { decision: 'approve' | 'deny'; reason: string } {
  const path = String(card.arguments.path ?? '');
  return card.tool === 'write' && path.startsWith('docs/')
    ? { decision: 'approve', reason: 'writes under docs/ are fine' }
    : {
        decision: 'deny',
        reason: `only writes under docs/ are approved here, not ${card.tool} ${path}`,
      };
}

const { sessionId } = await deputy.sessions.start({
  agent: 'demo-lead',
  message: 'Greet the workspace',
});
console.log(`session ${sessionId}`);

const stop = new AbortController();
for await (const event of deputy.sessions.events(sessionId, { signal: stop.signal })) {
  if (event.type === 'card-opened') {
    const { decision, reason } = rule(event.card);
    console.log(`${decision} ${event.card.agent}: ${event.card.tool} (${reason})`);
    await deputy.cards.decide(event.card.id, decision, reason);
  }
  if (event.type === 'reply') {
    console.log(`reply: ${event.text}`);
    stop.abort();
  }
}
await deputy.sessions.stop(sessionId);
