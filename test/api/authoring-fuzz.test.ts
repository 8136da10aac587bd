/**
 * The authoring routes under fuzz, in process over a real registry on
 * real files (authoring-fuzz-app.ts). Every generated request, of more than 10,000, must:
 *
 * - never answer 500 (or any 5xx), and leave the app's logger without an error;
 * - answer JSON: an error with a stable `code`, or the route's own success shape (zod-checked),
 *   a 204 with no body, or a generation stream whose every event is the documented envelope;
 * - carry no planted secret and no bearer token in its answer;
 * - with auth on, give a non-admin nothing but 401/403 (or the door's 413/415) on every authoring
 *   route, and a `GET /workspace/tools` without write or exec tools;
 * - when refused (4xx), leave every tree byte-identical (`.subagents`, `.claude`, the user level
 *   and the revisions: paths and sha256);
 * - when accepted, write no `__redacted__` anywhere, and an echo round trip (GET, change one
 *   field, send back) that leaves `mcpServers` alone keeps every secret in the agent's file;
 * - pollute no prototype.
 *
 * Each run starts from the seeded trees (a run that changed them is followed by a reset), so a
 * failure shrinks and replays. Seeded: set DEPUTY_FUZZ_SEED to explore another part of the space.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentDetailSchema,
  AgentListSchema,
  AgentMutationSchema,
  RevisionSchema,
} from '../../src/api/agents/schemas.js';
import { GeneratedAgentSchema, GenerationEventSchema } from '../../src/api/generate/schemas.js';
import { REDACTED } from '../../src/shared/redact.js';
import { filesContaining, snapshotTrees } from '../support/disk-snapshot.js';
import {
  ALL_FUZZ_SECRETS,
  FILE_SECRETS,
  createFuzzWorld,
  type FuzzWorld,
} from './authoring-fuzz-app.js';
import {
  ECHOED_FIELDS,
  applyMutation,
  authoringRequestArbitrary,
  authorization,
  toJsonText,
  type AuthoringRequest,
  type Who,
} from './authoring-fuzz-requests.js';
import { TOKENS } from './make-app.js';
import { calibrate, type Budget, type BudgetRule } from '../support/calibration.js';

const SEED = Number(process.env.DEPUTY_FUZZ_SEED ?? 20_260_108);
const RUNS = { off: 6_000, on: 4_000 } as const;
/**
 * Bound on one in-process answer, only a hang trips it: 1,000 times the slowest of a few plain
 * listings of the agents on the same app, or 5 s (answers take milliseconds).
 */
const NO_HANG: BudgetRule = { factor: 1_000, floorMs: 5_000 };
/** Set before the first fuzz run, from the listing measured then. */
let answerBound: Budget | undefined;

/** The route a method and path reach, as the app registers them (Hono matches the raw path). */
type Route =
  | 'list'
  | 'create'
  | 'detail'
  | 'update'
  | 'delete'
  | 'revisions'
  | 'restore'
  | 'duplicate'
  | 'tools'
  | 'models'
  | 'generate'
  | 'generate-agent'
  | 'none';

function routeOf(method: string, path: string): Route {
  // As the request will see it: the URL parser resolves `.` and `..` segments first.
  const { pathname } = new URL(`http://localhost${path}`);
  const get = method === 'GET' || method === 'HEAD';
  if (pathname === '/workspace/agents') {
    return get ? 'list' : method === 'POST' ? 'create' : 'none';
  }
  if (pathname === '/workspace/tools') return get ? 'tools' : 'none';
  if (pathname === '/workspace/models') return get ? 'models' : 'none';
  if (pathname === '/workspace/generate') return method === 'POST' ? 'generate' : 'none';
  if (pathname === '/workspace/agents/generate' && method === 'POST') return 'generate-agent';
  const segments = pathname.slice('/workspace/agents/'.length).split('/');
  if (!pathname.startsWith('/workspace/agents/') || segments.some((s) => s === '')) return 'none';
  if (segments.length === 1) {
    if (get) return 'detail';
    if (method === 'POST' || method === 'PATCH') return 'update';
    return method === 'DELETE' ? 'delete' : 'none';
  }
  if (segments.length === 2 && segments[1] === 'revisions') return get ? 'revisions' : 'none';
  if (segments.length === 2 && segments[1] === 'duplicate') {
    return method === 'POST' ? 'duplicate' : 'none';
  }
  if (segments.length === 4 && segments[1] === 'revisions' && segments[3] === 'restore') {
    return method === 'POST' ? 'restore' : 'none';
  }
  return 'none';
}

/** Routes that need the admin role with auth on: all but the list and the catalogs. */
const ADMIN_ONLY: ReadonlySet<Route> = new Set([
  'create',
  'detail',
  'update',
  'delete',
  'revisions',
  'restore',
  'duplicate',
  'generate',
  'generate-agent',
]);
const WRITES: ReadonlySet<Route> = new Set(['create', 'update', 'delete', 'restore', 'duplicate']);
const WRITE_TOOLS = ['write', 'edit', 'bash'];

const RevisionsAnswerSchema = z.strictObject({
  name: z.string(),
  revisions: z.array(RevisionSchema),
});
const ToolsAnswerSchema = z.object({
  v: z.literal(1),
  roles: z.array(z.string()).nullable(),
  tools: z.array(z.object({ name: z.string() })),
});
const ModelsAnswerSchema = z.object({ v: z.literal(1), models: z.array(z.unknown()) });
const ErrorSchema = z.object({
  error: z.string().regex(/^[a-z_]+$/),
  code: z.string().regex(/^[a-z_]+$/),
  message: z.string().optional(),
});

interface Tally {
  requests: number;
  /** Accepted echo round trips of an agent whose file holds secrets: each kept every one. */
  secretRoundTrips: number;
  /** route -> status -> count */
  statuses: Map<string, Map<number, number>>;
}

function count(tally: Tally, route: string, status: number): void {
  tally.requests += 1;
  const byStatus = tally.statuses.get(route) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  tally.statuses.set(route, byStatus);
}

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort().join();
/** What no answer may contain: the planted secrets and every bearer token. */
const SCANNED_SECRETS = [...ALL_FUZZ_SECRETS, ...Object.values(TOKENS)];

async function withinBound<T>(pending: Promise<T>, what: string): Promise<T> {
  if (answerBound === undefined) throw new Error('the answer bound is not calibrated yet');
  const bound = answerBound;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${bound.formula}: ${what}`)),
      bound.boundMs,
    );
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface Sent {
  method: string;
  path: string;
  body: string | undefined;
  contentType: string | undefined;
  who: Who;
}

/** Sends one request and checks its answer; returns the status and the parsed JSON (if any). */
async function exchange(
  world: FuzzWorld,
  tally: Tally,
  sent: Sent,
): Promise<{ status: number; json: unknown }> {
  const route = routeOf(sent.method, sent.path);
  const where = `${sent.method} ${sent.path.slice(0, 120)} (${route}, ${sent.who}) body ${
    sent.body === undefined ? '-' : JSON.stringify(sent.body.slice(0, 200))
  }`;
  const errorsBefore = world.errors.length;
  const headers: Record<string, string> = { ...authorization(sent.who) };
  if (sent.contentType !== undefined) headers['content-type'] = sent.contentType;
  const response = await withinBound(
    Promise.resolve(
      world.app.request(`http://localhost${sent.path}`, {
        method: sent.method,
        headers,
        ...(sent.body === undefined ? {} : { body: sent.body }),
      }),
    ),
    where,
  );
  const text = await withinBound(response.text(), where);
  const { status } = response;
  count(tally, route, status);

  expect(status, where).toBeLessThan(500);
  if (world.errors.length > errorsBefore) {
    expect.fail(`${where}: the app logged an error: ${String(world.errors.slice(errorsBefore))}`);
  }
  const leaked = SCANNED_SECRETS.filter((secret) => text.includes(secret));
  if (leaked.length > 0) expect.fail(`${where}: the answer holds ${leaked.join(', ')}`);
  if (Object.getOwnPropertyNames(Object.prototype).sort().join() !== PROTOTYPE_NAMES) {
    expect.fail(`${where}: Object.prototype changed`);
  }

  const type = response.headers.get('content-type') ?? '';
  if (sent.method === 'HEAD') return { status, json: undefined };
  if (status === 204) {
    expect(route, where).toBe('delete');
    expect(text, where).toBe('');
    return { status, json: undefined };
  }
  if (type.includes('text/event-stream')) {
    expect([route, status], where).toEqual(['generate', 200]);
    checkGenerationStream(text, where);
    return { status, json: undefined };
  }
  expect(type, where).toContain('application/json');
  const json = JSON.parse(text) as unknown;
  if (status >= 400) {
    const error = ErrorSchema.safeParse(json);
    expect(error.success, `${where} -> ${text.slice(0, 300)}`).toBe(true);
    // Answers quote input clipped and list at most 20 issues: never the body back whole.
    expect(text.length, `${where}: error answer of ${text.length} characters`).toBeLessThan(
      16 * 1024,
    );
  } else {
    checkSuccess(route, status, json, where);
  }

  if (world.config.auth !== undefined && sent.who !== 'admin' && route !== 'none') {
    if (sent.who === 'none' || sent.who === 'wrong') expect(status, where).toBe(401);
    else if (ADMIN_ONLY.has(route)) expect([403, 413, 415], where).toContain(status);
    // Reading the list and the catalogs needs any valid token, nothing more.
    else expect(status, where).toBe(200);
    if (route === 'tools' && status === 200) {
      const names = (json as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
      for (const tool of WRITE_TOOLS)
        expect(names, `${where}: ${tool} offered`).not.toContain(tool);
    }
  }
  return { status, json };
}

function checkSuccess(route: Route, status: number, json: unknown, where: string): void {
  const shape = `${where}: success shape`;
  const expectShape = (schema: z.ZodType) => {
    const parsed = schema.safeParse(json);
    expect(parsed.success, `${shape}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBe(
      true,
    );
  };
  switch (route) {
    case 'list':
      expect(status, where).toBe(200);
      return expectShape(AgentListSchema);
    case 'detail':
      expect(status, where).toBe(200);
      return expectShape(AgentDetailSchema);
    case 'create':
    case 'duplicate':
      expect(status, where).toBe(201);
      return expectShape(AgentMutationSchema);
    case 'update':
    case 'restore':
      expect(status, where).toBe(200);
      return expectShape(AgentMutationSchema);
    case 'revisions':
      return expectShape(RevisionsAnswerSchema);
    case 'tools':
      return expectShape(ToolsAnswerSchema);
    case 'models':
      return expectShape(ModelsAnswerSchema);
    case 'generate-agent':
      return expectShape(GeneratedAgentSchema);
    default:
      expect.fail(`${where}: ${status} from a route that should not answer so`);
  }
}

/** `started`, the pieces, then exactly one `done` (the scripted model does not fail). */
function checkGenerationStream(text: string, where: string): void {
  const events = text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const data = /^data: (.*)$/m.exec(block)?.[1];
      expect(data, `${where}: event without data: ${block.slice(0, 100)}`).toBeDefined();
      const parsed = GenerationEventSchema.safeParse(JSON.parse(data!));
      expect(parsed.success, `${where}: ${block.slice(0, 200)}`).toBe(true);
      return parsed.data!;
    });
  expect(
    events.map((event) => event.type).filter((type) => type !== 'delta'),
    where,
  ).toEqual(['started', 'done']);
}

/** The echo round trip: what an editor does with the detail it got. */
async function echo(
  world: FuzzWorld,
  tally: Tally,
  request: AuthoringRequest,
  seeded: string,
): Promise<number> {
  const { name, query, mutation } = request.echo!;
  const got = await exchange(world, tally, {
    method: 'GET',
    path: `/workspace/agents/${name}${query}`,
    body: undefined,
    contentType: undefined,
    who: request.who,
  });
  expect(snapshotTrees(world.trees), `GET /workspace/agents/${name} changed files`).toBe(seeded);
  const detail = (got.status === 200 ? got.json : {}) as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const field of ECHOED_FIELDS) {
    if (detail[field] !== undefined && detail[field] !== null) fields[field] = detail[field];
  }
  // The list shows maxTurns and runConfig.max_turns in step; an editor sends what it got.
  const body = toJsonText(applyMutation(fields, mutation));
  const filePath = typeof detail.filePath === 'string' ? detail.filePath : undefined;
  const secretsBefore =
    filePath === undefined
      ? []
      : FILE_SECRETS.filter((secret) => readFileSync(filePath, 'utf8').includes(secret));
  const saved = await exchange(world, tally, {
    method: request.method,
    path: request.path,
    body,
    contentType: request.contentType,
    who: request.who,
  });
  const touchesServers = mutation.kind !== 'none' && mutation.key === 'mcpServers';
  if (saved.status === 200 && filePath !== undefined && !touchesServers) {
    const after = readFileSync(filePath, 'utf8');
    for (const secret of secretsBefore) {
      expect(after, `echo of ${name}${query} lost a secret`).toContain(secret);
    }
    if (secretsBefore.length > 0) tally.secretRoundTrips += 1;
  }
  return saved.status;
}

async function resolvedPath(world: FuzzWorld, request: AuthoringRequest): Promise<string> {
  if (!request.path.includes('{rev}')) return request.path;
  const ref = request.revision ?? { literal: 'none' };
  let id: string;
  if ('live' in ref) {
    const revisions = await world.registry.revisions(ref.live);
    id = revisions[ref.index % Math.max(revisions.length, 1)]?.id ?? '20990101T000000000Z-00000000';
  } else {
    id = ref.literal;
  }
  return request.path.replace('{rev}', id);
}

async function fuzz(world: FuzzWorld, runs: number): Promise<Tally> {
  const tally: Tally = { requests: 0, secretRoundTrips: 0, statuses: new Map() };
  const seeded = snapshotTrees(world.trees);
  expect(filesContaining(world.trees, REDACTED)).toEqual([]);
  const outcome = await fc.check(
    fc.asyncProperty(
      authoringRequestArbitrary({ auth: world.config.auth !== undefined }),
      async (request) => {
        let now: string | undefined;
        try {
          const path = await resolvedPath(world, request);
          const status =
            request.route === 'echo'
              ? await echo(world, tally, request, seeded)
              : (await exchange(world, tally, { ...request, path })).status;
          const where = `${request.method} ${path.slice(0, 120)}`;
          now = snapshotTrees(world.trees);
          if (status >= 400) {
            // The claim: a refused request changes nothing (paths and bytes of every tree).
            expect(now === seeded, `${where} was refused (${status}) but changed files`).toBe(true);
          } else if (now !== seeded) {
            // Accepted and written: only a write route may, and nothing written holds the placeholder.
            const route = routeOf(request.method, path);
            expect(WRITES.has(route), `${where} (${route}) changed files`).toBe(true);
            expect(filesContaining(world.trees, REDACTED), where).toEqual([]);
          }
        } finally {
          // The next run starts from the seeded trees again, so every failure replays as it shrinks.
          if ((now ?? snapshotTrees(world.trees)) !== seeded) await world.reset();
        }
      },
    ),
    { numRuns: runs, seed: SEED },
  );
  if (outcome.failed) {
    // fast-check's own report would print megabytes of generated body: say it clipped.
    const example = JSON.stringify(outcome.counterexample?.[0] ?? null);
    throw new Error(
      `fuzz failed after ${outcome.numRuns} runs (seed ${outcome.seed}, path ${outcome.counterexamplePath}); counterexample (clipped): ${example.slice(0, 1500)}\n${String(outcome.errorInstance).slice(0, 3000)}`,
    );
  }
  return tally;
}

function summary(tally: Tally): string {
  return [...tally.statuses]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([route, byStatus]) =>
        `${route} ${JSON.stringify(Object.fromEntries([...byStatus].sort(([a], [b]) => a - b)))}`,
    )
    .join('; ');
}

const sum = (byStatus: Map<number, number> | undefined, accept: (status: number) => boolean) =>
  [...(byStatus ?? new Map<number, number>())]
    .filter(([status]) => accept(status))
    .reduce((total, [, n]) => total + n, 0);

describe('authoring routes under fuzz', () => {
  const worlds: Partial<Record<'off' | 'on', FuzzWorld>> = {};
  const tallies: Tally[] = [];
  beforeAll(async () => {
    worlds.off = await createFuzzWorld({ auth: false });
    worlds.on = await createFuzzWorld({ auth: true });
    const { app } = worlds.off;
    answerBound = await calibrate(
      'GET /workspace/agents on the same app',
      async () => (await app.request('http://localhost/workspace/agents')).text(),
      NO_HANG,
      5,
    );
  });
  afterAll(async () => {
    await worlds.off?.close();
    await worlds.on?.close();
    const total = tallies.reduce((n, tally) => n + tally.requests, 0);
    expect(total).toBeGreaterThanOrEqual(10_000);
  });

  it(`auth off: ${RUNS.off} generated requests (seed ${SEED}), no 500, refusals change no file`, async () => {
    const began = Date.now();
    const tally = await fuzz(worlds.off!, RUNS.off);
    tallies.push(tally);
    console.log(
      `authoring fuzz, auth off: ${tally.requests} requests (${tally.secretRoundTrips} secret-keeping round trips) in ${((Date.now() - began) / 1000).toFixed(1)} s; ${summary(tally)}`,
    );
    // The generator must reach every outcome, or the fuzz proves little.
    for (const route of ['create', 'update', 'delete', 'duplicate', 'restore']) {
      const byStatus = tally.statuses.get(route);
      expect(
        sum(byStatus, (s) => s < 300),
        `${route} never accepted`,
      ).toBeGreaterThan(0);
      expect(
        sum(byStatus, (s) => s >= 400),
        `${route} never refused`,
      ).toBeGreaterThan(0);
    }
    expect(
      tally.secretRoundTrips,
      'no accepted round trip of an agent with secrets',
    ).toBeGreaterThan(0);
    const all = new Set([...tally.statuses.values()].flatMap((byStatus) => [...byStatus.keys()]));
    for (const status of [200, 201, 204, 400, 403, 404, 409, 413, 415, 422]) {
      expect(all.has(status), `status ${status} never produced`).toBe(true);
    }
    expect(worlds.off!.errors).toEqual([]);
  }, 120_000);

  it(`auth on: ${RUNS.on} generated requests by admins, non-admins and strangers`, async () => {
    const began = Date.now();
    const tally = await fuzz(worlds.on!, RUNS.on);
    tallies.push(tally);
    console.log(
      `authoring fuzz, auth on: ${tally.requests} requests in ${((Date.now() - began) / 1000).toFixed(1)} s; ${summary(tally)}`,
    );
    const all = new Set([...tally.statuses.values()].flatMap((byStatus) => [...byStatus.keys()]));
    for (const status of [200, 201, 401, 403, 422]) {
      expect(all.has(status), `status ${status} never produced`).toBe(true);
    }
    expect(worlds.on!.errors).toEqual([]);
  }, 120_000);
});
