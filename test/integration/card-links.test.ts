/**
 * One-tap card links on real Temporal: the global dev server, a real worker, the API
 * through startApiServer on loopback with auth on, the scripted `demo` agent (it asks to write
 * hello.txt), the real `deputy` command over the API's local socket, and a real webhook receiver
 * on loopback. The link keys are rotated: links.secretEnv names a new and an old variable. A
 * second API on the watched configuration shows that a link whose user (or webhook) was removed
 * since, or lost a role, decides nothing.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import { localOperatorId } from '../../src/local-operator.js';
import { mintCardLinks } from '../../src/secrets/link-mint.js';
import type { CardLinks } from '../../src/shared/cards/card-links.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import type { Notification } from '../../src/shared/workflow-contract/notifications.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { watchConfig } from '../../src/config/watch.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const NEW_VARIABLE = 'DEPUTY_TEST_LINK_KEY_NEW';
const OLD_VARIABLE = 'DEPUTY_TEST_LINK_KEY_OLD';
const NEW_KEY = `new-${randomUUID()}-${randomUUID()}`;
const OLD_KEY = `old-${randomUUID()}-${randomUUID()}`;

const TOKENS = { alice: `tok-links-alice-${randomUUID()}`, bob: `tok-links-bob-${randomUUID()}` };
type Who = keyof typeof TOKENS;
const auth = createAuth(
  {
    auth: {
      tokens: {
        T_LINK_ALICE: { user: 'alice', roles: ['admin'] },
        T_LINK_BOB: { user: 'bob', roles: ['ops'] },
      },
    },
  },
  { T_LINK_ALICE: TOKENS.alice, T_LINK_BOB: TOKENS.bob },
);

/** A webhook receiver that keeps every body it is sent. */
const hooks: Notification[] = [];
const receiver: Server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    hooks.push(JSON.parse(Buffer.concat(chunks).toString()) as Notification);
    response.writeHead(200).end();
  });
});

let harness: Harness;
let server: ApiServer;

beforeAll(async () => {
  process.env[NEW_VARIABLE] = NEW_KEY;
  process.env[OLD_VARIABLE] = OLD_KEY;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  harness = await createHarness({
    'README.md': '# links workspace\n',
    '.subagents/config.yaml': `links:
  secretEnv: [${NEW_VARIABLE}, ${OLD_VARIABLE}]
  expiry: 2h
notifications:
  webhooks:
    ops:
      url: ${hookUrl}
      events: [card.opened]
`,
  });
  server = await startApiServer(
    {
      ...harness.config,
      api: { host: '127.0.0.1', port: 0 },
      temporal: { ...harness.config.temporal, address: null, taskQueue: harness.taskQueue },
    },
    { delegations: harness.delegations, auth },
  );
  // The links point at this server: the API, the CLI's socket and the worker's webhook all read it.
  process.env.DEPUTY_PUBLIC_URL = server.url;
});

afterAll(async () => {
  await server?.close();
  await harness?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  for (const name of [NEW_VARIABLE, OLD_VARIABLE, 'DEPUTY_PUBLIC_URL']) delete process.env[name];
});

async function call(who: Who | null, method: string, path: string) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: who === null ? {} : { Authorization: `Bearer ${TOKENS[who]}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Opens a link as a browser would: no bearer token; a POST is the page's own form (same origin). */
async function open(url: string, method: 'GET' | 'POST' = 'GET', origin = server.url) {
  const response = await fetch(url, {
    method,
    headers:
      method === 'POST'
        ? {
            origin,
            'content-type': 'application/x-www-form-urlencoded',
            'sec-fetch-site': 'same-origin',
          }
        : { 'sec-fetch-site': 'cross-site' },
    ...(method === 'POST' ? { body: '' } : {}),
  });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** Starts `demo` as `who` (or as the local operator when null) and waits for its write card. */
async function parked(who: Who | null): Promise<{ session: string; card: ApprovalCard }> {
  const session = `links-${randomUUID().slice(0, 8)}`;
  await harness.start('demo', 'Greet the workspace', {
    session,
    ...(who === null ? {} : { caller: { id: who, roles: who === 'alice' ? ['admin'] : ['ops'] } }),
  });
  const card = await eventually(
    async () => (await harness.delegations.cards({ session }))[0],
    'the demo card',
  );
  return { session, card };
}

const pendingIds = async (delegationId: string) =>
  (await harness.delegations.get(delegationId)).pendingCards.map((card) => card.id);

/** `url` with one character of its token changed. */
function tampered(url: string): string {
  const at = url.length - 5;
  return `${url.slice(0, at)}${url[at] === 'A' ? 'B' : 'A'}${url.slice(at + 1)}`;
}

describe('one-tap links', () => {
  it('mints for who may decide, shows a page that decides nothing, approves once on POST', async () => {
    const { card } = await parked('alice');
    // Minting needs the right to decide: none without a token, none for bob (a write card of alice's).
    expect((await call(null, 'POST', `/cards/${card.id}/links`)).status).toBe(401);
    const refused = await call('bob', 'POST', `/cards/${card.id}/links`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');

    const minted = await call('alice', 'POST', `/cards/${card.id}/links`);
    expect(minted.status).toBe(200);
    const links = minted.body as unknown as CardLinks;
    expect(links.cardId).toBe(card.id);
    expect(links.approve.startsWith(`${server.url}/cards/${card.id}/links/`)).toBe(true);
    const expiresIn = Date.parse(links.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(2 * 3_600_000);
    // No key value ever leaves: not in the answer, not in the link.
    expect(JSON.stringify(minted.body)).not.toContain(NEW_KEY);

    // A GET, as a link preview or a click from a mail (cross-site), shows the card and decides nothing.
    const page = await open(links.approve);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.html).toContain('Approve write for demo?');
    expect(page.html).toContain('hello.txt');
    expect(page.html).toContain('<form method="post">');
    expect(page.html).toContain('alice');
    expect(await pendingIds(card.delegationId)).toEqual([card.id]);

    // Tampered, or for another card, or posted from another site: refused, still pending.
    expect((await open(tampered(links.approve))).status).toBe(403);
    expect((await open(tampered(links.approve), 'POST')).status).toBe(403);
    const otherCard = links.approve.replace(`/cards/${card.id}/`, `/cards/${card.id}9/`);
    expect((await open(otherCard, 'POST')).status).toBe(403);
    const crossSite = await open(links.approve, 'POST', 'http://evil.example');
    expect(crossSite.status).toBe(403);
    expect(await pendingIds(card.delegationId)).toEqual([card.id]);

    const decided = await open(links.approve, 'POST');
    expect(decided.status).toBe(200);
    expect(decided.html).toContain('Approved as alice');
    const handle = harness.client.workflow.getHandle(card.workflowId);
    expect((await handle.result()).status).toBe('completed');
    expect(existsSync(join(harness.workspace, 'hello.txt'))).toBe(true);
    const state = await harness.delegations.get(card.delegationId);
    expect(state.decidedCards).toMatchObject([
      {
        id: card.id,
        state: { status: 'approved', decidedBy: 'alice', reason: 'approved with a one-tap link' },
      },
    ]);

    // Single use: the same link, the other link, and the page now say it is decided.
    const again = await open(links.approve, 'POST');
    expect(again.status).toBe(409);
    expect((await open(links.deny, 'POST')).status).toBe(409);
    const after = await open(links.approve);
    expect(after.status).toBe(409);
    expect(after.html).toContain('already approved by alice');
    expect(await call('alice', 'POST', `/cards/${card.id}/links`)).toMatchObject({ status: 409 });
  }, 60_000);

  it('refuses an expired link, a removed key, and an anonymous link once auth is on; an old key still works', async () => {
    const { card } = await parked('alice');
    const config = { ...harness.config, api: { host: '127.0.0.1', port: 0 } };
    const alice = { id: 'alice', roles: ['admin'] };
    const env = { [NEW_VARIABLE]: NEW_KEY, DEPUTY_PUBLIC_URL: server.url };
    const expired = mintCardLinks(config, card, alice, { env, now: Date.now() - 3 * 3_600_000 });
    const page = await open(expired.approve);
    expect(page.status).toBe(410);
    expect(page.html).toContain('expired');
    expect((await open(expired.approve, 'POST')).status).toBe(410);

    const removed = mintCardLinks(config, card, alice, {
      env: {
        [NEW_VARIABLE]: `removed-${randomUUID()}-${randomUUID()}`,
        DEPUTY_PUBLIC_URL: server.url,
      },
    });
    expect((await open(removed.approve, 'POST')).status).toBe(403);

    const anonymous = mintCardLinks(config, card, { id: null, roles: [] }, { env });
    const refusal = await open(anonymous.approve, 'POST');
    expect(refusal.status).toBe(403);
    expect(refusal.html).toContain('auth was off');
    expect(await pendingIds(card.delegationId)).toEqual([card.id]);

    // Signed with the old key alone (before the rotation): still verifies, and denies.
    const old = mintCardLinks(config, card, alice, {
      env: { [OLD_VARIABLE]: OLD_KEY, DEPUTY_PUBLIC_URL: server.url },
    });
    const denied = await open(old.deny, 'POST');
    expect(denied.status).toBe(200);
    expect(denied.html).toContain('Denied as alice');
    const result = await harness.client.workflow.getHandle(card.workflowId).result();
    expect(result.deniedCalls).toMatchObject([{ tool: 'write', by: 'human' }]);
  }, 60_000);

  it('deputy cards --links mints over the local socket as the operator, and the link decides as them', async () => {
    const { session, card } = await parked(null);
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DEPUTY_DATA_DIR: harness.config.dataDir,
    };
    const listed = await runDeputy(['cards', '--links', '--session', session, '--json'], {
      env,
      cwd: harness.workspace,
    });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const [row] = JSON.parse(listed.stdout) as Array<ApprovalCard & { links: CardLinks }>;
    expect(row).toMatchObject({ id: card.id, links: { cardId: card.id } });
    const text = await runDeputy(['cards', '--links', '--session', session], {
      env,
      cwd: harness.workspace,
    });
    expect(text.stdout).toContain(`card ${card.id}: demo wants write`);
    expect(text.stdout).toMatch(
      new RegExp(`approve link: ${server.url}/cards/${card.id}/links/\\S+`),
    );
    expect(text.stdout).toContain('deny link:    ');

    // With no API to ask (DEPUTY_LOCAL_API=0), the command mints them itself with its own key.
    const direct = await runDeputy(['cards', '--links', '--session', session, '--json'], {
      env: {
        ...env,
        DEPUTY_LOCAL_API: '0',
        TEMPORAL_ADDRESS: harness.address,
        DEPUTY_TASK_QUEUE: harness.taskQueue,
        DEPUTY_PUBLIC_URL: server.url,
        [NEW_VARIABLE]: NEW_KEY,
      },
      cwd: harness.workspace,
    });
    expect(direct.code).toBe(0);
    const [minted] = JSON.parse(direct.stdout) as Array<ApprovalCard & { links: CardLinks }>;
    expect(minted!.links.approve).not.toBe(row!.links.approve);
    const preview = await open(minted!.links.deny);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(localOperatorId());
    // Without a key in its environment it says links are off, naming the variables.
    const off = await runDeputy(['cards', '--links', '--session', session], {
      env: {
        ...env,
        DEPUTY_LOCAL_API: '0',
        TEMPORAL_ADDRESS: harness.address,
        DEPUTY_TASK_QUEUE: harness.taskQueue,
      },
      cwd: harness.workspace,
    });
    expect(off.code).not.toBe(0);
    expect(off.stderr).toContain(
      `one-tap links are off: no signing key is set (set ${NEW_VARIABLE}, ${OLD_VARIABLE}`,
    );

    expect((await open(row!.links.approve)).html).toContain(localOperatorId());
    expect((await open(row!.links.approve, 'POST')).status).toBe(200);
    const state = await harness.delegations.get(card.delegationId);
    expect(state.decidedCards).toMatchObject([
      { id: card.id, state: { status: 'approved', decidedBy: localOperatorId() } },
    ]);
  }, 60_000);

  it('the card.opened webhook carries links, minted by the worker, deciding as webhook:<name>', async () => {
    const { card } = await parked('alice');
    const hook = await eventually(
      async () => hooks.find((one) => one.type === 'card.opened' && one.card?.id === card.id),
      'the card.opened webhook',
      20_000,
    );
    expect(hook.links).toMatchObject({ cardId: card.id });
    expect(hook.links!.approve.startsWith(`${server.url}/cards/${card.id}/links/`)).toBe(true);
    expect(JSON.stringify(hook)).not.toContain(NEW_KEY);
    expect((await open(hook.links!.deny)).html).toContain('webhook:ops');
    expect((await open(hook.links!.deny, 'POST')).status).toBe(200);
    const state = await harness.delegations.get(card.delegationId);
    expect(state.decidedCards).toMatchObject([
      { id: card.id, state: { status: 'denied', decidedBy: 'webhook:ops' } },
    ]);
  }, 60_000);

  it('two links pressed at once: one decides, the other is told; with no worker the decision is recorded', async () => {
    const { card } = await parked('alice');
    const links = (await call('alice', 'POST', `/cards/${card.id}/links`))
      .body as unknown as CardLinks;
    const both = await Promise.all([open(links.approve, 'POST'), open(links.deny, 'POST')]);
    expect(both.map((one) => one.status).sort()).toEqual([200, 409]);
    const winner = both.find((one) => one.status === 200)!;
    const state = await harness.delegations.get(card.delegationId);
    const decided = state.decidedCards.find((one) => one.id === card.id);
    expect(decided?.state.status).toBe(
      winner.html.includes('<h1>Approved</h1>') ? 'approved' : 'denied',
    );

    // No worker runs: the link's decision is stored in the history and applies once one does.
    const next = await parked('alice');
    const nextLinks = (await call('alice', 'POST', `/cards/${next.card.id}/links`))
      .body as unknown as CardLinks;
    await harness.stopWorker();
    try {
      const recorded = await open(nextLinks.approve, 'POST');
      expect(recorded.status).toBe(202);
      expect(recorded.html).toContain('Approval recorded');
      expect((await open(nextLinks.approve, 'POST')).status).toBe(409);
    } finally {
      await harness.startWorker();
    }
    const result = await harness.client.workflow.getHandle(next.card.workflowId).result();
    expect(result.status).toBe('completed');
    expect((await harness.delegations.get(next.card.delegationId)).decidedCards).toMatchObject([
      { id: next.card.id, state: { status: 'approved', decidedBy: 'alice' } },
    ]);
  }, 90_000);

  it('says links are off when no key is configured', async () => {
    const app = createApp({
      delegations: harness.delegations,
      config: { ...harness.config, links: { secretEnv: 'DEPUTY_TEST_UNSET_LINK_KEY' } },
    });
    const { card } = await parked(null);
    const mint = await app.request(`/cards/${card.id}/links`, { method: 'POST' });
    expect(mint.status).toBe(503);
    expect(((await mint.json()) as { message: string }).message).toContain(
      'one-tap links are off: no signing key is set (set DEPUTY_TEST_UNSET_LINK_KEY',
    );
    const page = await app.request(`/cards/${card.id}/links/abc.def`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Links are off');
    await harness.delegations.stop(card.delegationId);
  }, 60_000);
});

describe('one-tap links of a user who is removed', () => {
  const USERS = {
    carol: { variable: 'T_LINK_CAROL', token: `tok-links-carol-${randomUUID()}` },
    dave: { variable: 'T_LINK_DAVE', token: `tok-links-dave-${randomUUID()}` },
  };
  type User = keyof typeof USERS;

  it('decides nothing once the token of its user is removed, its webhook is gone, or with a role taken away since', async () => {
    for (const { variable, token } of Object.values(USERS)) process.env[variable] = token;
    const file = join(harness.workspace, '.subagents', 'config.yaml');
    const original = readFileSync(file, 'utf8');
    const withoutWebhook = original.slice(0, original.indexOf('notifications:'));
    const withUsers = (users: Partial<Record<User, string[]>>, head = original) =>
      `${head}auth:\n  tokens:\n${Object.entries(users)
        .map(
          ([user, roles]) =>
            `    ${USERS[user as User].variable}: { user: ${user}, roles: [${roles.join(', ')}] }\n`,
        )
        .join('')}`;
    // The API on the watched configuration, as `deputy dev` runs it: auth follows the file.
    const watcher = watchConfig(harness.config);
    await watcher.ready;
    const live = await startApiServer(
      {
        ...harness.config,
        api: { host: '127.0.0.1', port: 0 },
        temporal: { ...harness.config.temporal, address: null, taskQueue: harness.taskQueue },
      },
      {
        delegations: harness.delegations,
        settings: watcher,
        localSocket: false,
        logger: { error: () => {}, warn: () => {}, info: () => {} },
      },
    );
    const as = (user: User, method: string, path: string) =>
      fetch(`${live.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${USERS[user].token}` },
      });
    /** The link as served by the live API (DEPUTY_PUBLIC_URL names the other one). */
    const here = (url: string) => url.replace(server.url, live.url);
    try {
      writeFileSync(file, withUsers({ carol: ['admin'], dave: ['admin'] }));
      await eventually(
        async () => ((await as('carol', 'GET', '/delegations')).status === 200 ? true : undefined),
        "carol's token to count",
      );
      const { card } = await parked('alice');
      const mint = async (user: User) => {
        const response = await as(user, 'POST', `/cards/${card.id}/links`);
        expect(response.status).toBe(200);
        return (await response.json()) as CardLinks;
      };
      const carol = await mint('carol');
      const dave = await mint('dave');
      expect((await open(here(carol.approve))).html).toContain('carol');

      const hook = await eventually(
        async () => hooks.find((one) => one.type === 'card.opened' && one.card?.id === card.id),
        'the card.opened webhook',
        20_000,
      );

      // carol's token is removed, dave is no admin any more, the webhook is gone: each counts
      // from the next request on.
      writeFileSync(file, withUsers({ dave: ['ops'] }, withoutWebhook));
      await eventually(
        async () => ((await as('carol', 'GET', '/delegations')).status === 401 ? true : undefined),
        "carol's token to be refused",
      );
      for (const method of ['GET', 'POST'] as const) {
        const refused = await open(here(carol.approve), method, live.url);
        expect(refused.status, method).toBe(403);
        expect(refused.html).toContain(
          'This link was made for carol, who no longer exists on this server (no token in auth.tokens names them); it decides nothing.',
        );
      }
      expect((await open(here(carol.deny), 'POST', live.url)).status).toBe(403);
      const demoted = await open(here(dave.approve), 'POST', live.url);
      expect(demoted.status).toBe(403);
      expect(demoted.html).toContain('needs the &#39;admin&#39; role');
      const unhooked = await open(here(hook.links!.approve), 'POST', live.url);
      expect(unhooked.status).toBe(403);
      expect(unhooked.html).toContain(
        'This link was sent by the webhook &#39;ops&#39;, which is no longer configured on this server; it decides nothing.',
      );
      expect(await pendingIds(card.delegationId)).toEqual([card.id]);

      // dave an admin again: his link decides, as him.
      writeFileSync(file, withUsers({ dave: ['admin'] }));
      await eventually(async () => {
        const page = await open(here(dave.approve), 'POST', live.url);
        return page.status === 200 ? page : undefined;
      }, "dave's link to decide once he is an admin again");
      expect((await harness.delegations.get(card.delegationId)).decidedCards).toMatchObject([
        { id: card.id, state: { status: 'approved', decidedBy: 'dave' } },
      ]);
    } finally {
      writeFileSync(file, original);
      await live.close();
      await watcher.close();
      for (const { variable } of Object.values(USERS)) delete process.env[variable];
    }
  }, 60_000);
});
