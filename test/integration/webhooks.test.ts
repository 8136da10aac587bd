/**
 * Webhook notifications, on the real dev server with a real receiver on loopback
 * that refuses the first two attempts of every event: each event (card opened, card expiring,
 * delegation completed) is delivered once, signed with HMAC-SHA256 of the raw body, with the
 * same idempotency key on every attempt, and the body masked (a configured secret the task
 * carried is `__redacted__`). A webhook that rejects a notification (4xx) is not retried.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../src/shared/workflow-contract/notifications.js';
import { decideCardUpdate, stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const SECRET_VARIABLE = 'DEPUTY_TEST_WEBHOOK_SECRET';
const SECRET = `whsec-${randomUUID()}`;

interface Attempt {
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  status: number;
}

/** Answers 503 to the first two attempts of each idempotency key, then 200; or always `fixed`. */
function receiver(fixed?: number) {
  const attempts: Attempt[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const key = String(request.headers['idempotency-key']);
      const earlier = attempts.filter((one) => one.headers['idempotency-key'] === key).length;
      const status = fixed ?? (earlier < 2 ? 503 : 200);
      attempts.push({ headers: request.headers, raw: Buffer.concat(chunks).toString(), status });
      response.writeHead(status).end();
    });
  });
  return {
    attempts,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const ops = receiver();
const rejecting = receiver(410);
let harness: Harness;

beforeAll(async () => {
  process.env[SECRET_VARIABLE] = SECRET;
  const [opsUrl, rejectingUrl] = [await ops.listen(), await rejecting.listen()];
  harness = await createHarness({
    '.subagents/config.yaml': `notifications:
  webhooks:
    ops:
      url: ${opsUrl}
      events: [card.opened, card.expiring, delegation.completed]
      secretEnv: ${SECRET_VARIABLE}
    gone:
      url: ${rejectingUrl}
      events: [delegation.completed]
`,
    '.subagents/agents/noted.md':
      '---\nname: noted\ndescription: writes the task into a note, after approval\nmodel: scripted:scripts/noted.yaml\ntools: [write]\napprovalMode: confirm\ncardTimeout: 30s\ncardReminder: 29s\n---\nWrite.\n',
    'scripts/noted.yaml': `turns:
  - text: Noting.
    toolCalls: [{ name: write, arguments: { path: noted.txt, content: "\${task}" } }]
  - text: Noted.
`,
  });
});
afterAll(async () => {
  await harness?.close();
  await ops.close();
  await rejecting.close();
  delete process.env[SECRET_VARIABLE];
});

function delivered(type: string): Attempt[] {
  return ops.attempts.filter((one) => one.headers['x-deputy-event'] === type);
}

describe('webhook notifications', () => {
  it('delivers each event once after two refusals, signed, with one idempotency key', async () => {
    const handle = await harness.start('noted', `remember ${SECRET}`);
    // The reminder comes 1 s after the card opens; both reach the webhook on their third try.
    await eventually(
      async () => (delivered('card.expiring').some((one) => one.status === 200) ? true : undefined),
      'the card.expiring notification',
      20_000,
    );
    const [card] = (await handle.query(stateQuery)).pendingCards;
    await handle.executeUpdate(decideCardUpdate, {
      args: [{ cardId: card!.id, decision: 'approve' }],
    });
    expect((await handle.result()).status).toBe('completed');
    await eventually(
      async () =>
        delivered('delegation.completed').some((one) => one.status === 200) ? true : undefined,
      'the delegation.completed notification',
      20_000,
    );

    for (const type of ['card.opened', 'card.expiring', 'delegation.completed']) {
      const attempts = delivered(type);
      expect(
        attempts.map((one) => one.status),
        type,
      ).toEqual([503, 503, 200]);
      const bodies = attempts.map((one) => JSON.parse(one.raw) as Notification);
      const key = bodies[0]!.id;
      for (const [index, attempt] of attempts.entries()) {
        expect(attempt.headers['idempotency-key']).toBe(key);
        expect(bodies[index]!.id).toBe(key);
        const expected = `sha256=${createHmac('sha256', SECRET).update(attempt.raw).digest('hex')}`;
        expect(attempt.headers['x-deputy-signature']).toBe(expected);
        // Masked like every other output: the secret the task carried never leaves.
        expect(attempt.raw).not.toContain(SECRET);
      }
      expect(bodies[0]).toMatchObject({
        type,
        delegation: { workflowId: handle.workflowId, agent: 'noted' },
      });
    }
    const opened = JSON.parse(delivered('card.opened')[0]!.raw) as Notification;
    expect(opened.card).toMatchObject({ id: card!.id, tool: 'write' });
    expect(JSON.stringify(opened.card!.arguments)).toContain('__redacted__');
    const completed = JSON.parse(delivered('delegation.completed')[0]!.raw) as Notification;
    expect(completed.result).toMatchObject({ status: 'completed', text: 'Noted.' });
    // The webhook that answers 410 got one attempt and was not retried.
    expect(rejecting.attempts.map((one) => one.status)).toEqual([410]);
    expect(rejecting.attempts[0]!.headers).not.toHaveProperty('x-deputy-signature');
  }, 60_000);
});
