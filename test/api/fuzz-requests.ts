/**
 * Generated HTTP requests for the API fuzz tests: every route plus unknown ones, every method,
 * hostile and harmless headers, content types, bodies from valid to megabytes of nonsense. Used
 * in-process over the stub facade (test/api/fuzz.test.ts) and over the real facade on the real
 * dev server (test/integration/api-fuzz.test.ts), and checked by the same `checkAnswer`.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Budget } from '../support/calibration.js';
import { TOKENS } from './make-app.js';

const MIB = 1024 * 1024;

/** Printable ASCII: what a header value may hold (Headers refuses CR, LF, NUL and non-Latin-1). */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength,
  });

export interface IdPools {
  /** Delegation ids that exist. */
  delegations: readonly string[];
}

function idArbitrary(pools: IdPools): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pools.delegations) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,20}$/) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.integer({ min: 65, max: 20_000 }).map((n) => 'd'.repeat(n)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("x' OR 1=1", '..', '%2e%2e', '%zz', 'a/b', 'a%00b', '\u202e'),
    },
  );
}

function cardIdArbitrary(pools: IdPools): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(...pools.delegations), fc.nat(12)).map(([d, n]) => `${d}.${n}`),
    fc.tuple(idArbitrary(pools), fc.string({ maxLength: 12 })).map(([d, n]) => `${d}.${n}`),
    idArbitrary(pools),
  );
}

/** A path segment as a client would send it: usually encoded, sometimes raw. */
const segment = (id: string, raw: boolean) => (raw ? id : encodeURIComponent(id));

function pathArbitrary(pools: IdPools): fc.Arbitrary<string> {
  const withId = (template: (id: string) => string, ids: fc.Arbitrary<string>) =>
    fc.tuple(ids, fc.boolean()).map(([id, raw]) => template(segment(id, raw)));
  return fc.oneof(
    fc.constantFrom('/health', '/openapi.json', '/delegations', '/', '/cards', '/sessions'),
    withId((id) => `/delegations/${id}`, idArbitrary(pools)),
    withId((id) => `/delegations/${id}/events`, idArbitrary(pools)),
    withId((id) => `/delegations/${id}/stop`, idArbitrary(pools)),
    withId((id) => `/sessions/${id}/cards`, idArbitrary(pools)),
    withId((id) => `/cards/${id}`, cardIdArbitrary(pools)),
    fc.array(fc.webSegment(), { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
  );
}

const queryArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.constantFrom('session', 'agent', 'status', 'after', 'wait', 'x', ''),
          fc.oneof(
            fc.constantFrom('parked', 'running', 'demo', 'default', 'true', '0', '-1', 'NaN', ''),
            fc.string({ maxLength: 30 }),
          ),
        ),
        { maxLength: 3 },
      )
      .map(
        (pairs) =>
          `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`,
      ),
  },
  { weight: 1, arbitrary: fc.constant('?%zz=%zz&&=') },
);

const hostArbitrary = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.constantFrom('localhost', 'localhost:4780', '127.0.0.1:4780', '[::1]:4780'),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('evil.example', 'evil.example:4780', '0.0.0.0', 'localhost.'),
  },
  { weight: 1, arbitrary: headerText(60) },
);

const originArbitrary = fc.oneof(
  { weight: 10, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('http://localhost:3000', 'http://127.0.0.1:4780') },
  { weight: 1, arbitrary: fc.constantFrom('https://evil.example', 'null', 'file://') },
  { weight: 1, arbitrary: headerText(60) },
);

const contentTypeArbitrary = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
    ),
  },
  { weight: 1, arbitrary: headerText(60) },
);

/** With auth on, most requests carry a real token, so the routes behind the 401 get exercised. */
const authorizationArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...Object.values(TOKENS)).map((t) => `Bearer ${t}`) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('Bearer', 'Bearer tok-wrong', 'Basic YWxpY2U6eA==') },
  { weight: 1, arbitrary: headerText(80) },
);

const headersArbitrary: fc.Arbitrary<Record<string, string>> = fc
  .record({
    host: hostArbitrary,
    origin: originArbitrary,
    secFetchSite: fc.option(fc.constantFrom('cross-site', 'same-site', 'same-origin', 'none'), {
      freq: 3,
    }),
    contentType: contentTypeArbitrary,
    authorization: authorizationArbitrary,
    lastEventId: fc.option(fc.oneof(fc.constantFrom('0', '5', '-1'), headerText(20)), { freq: 3 }),
  })
  .map((r) => {
    const headers: Record<string, string> = {};
    if (r.host !== undefined) headers.host = r.host;
    if (r.origin !== undefined) headers.origin = r.origin;
    if (r.secFetchSite !== null) headers['sec-fetch-site'] = r.secFetchSite;
    if (r.contentType !== undefined) headers['content-type'] = r.contentType;
    if (r.authorization !== undefined) headers.authorization = r.authorization;
    if (r.lastEventId !== null) headers['last-event-id'] = r.lastEventId;
    return headers;
  });

/** Bodies of every kind of junk, from empty to megabytes. */
const junkBodyArbitrary: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.json() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '[]', '{', '{"a":', '\u0000') },
  { weight: 1, arbitrary: fc.nat(200_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(64 * 1024, 64 * 1024 + 1, MIB - 64, MIB + 1, 3 * MIB)
      .map((size) => JSON.stringify({ agent: 'demo', task: 'x'.repeat(size) })),
  },
);

function startBodyArbitrary(pools: IdPools): fc.Arbitrary<string | undefined> {
  const valid = fc.record(
    {
      agent: fc.constantFrom('demo', 'ghost'),
      task: fc.oneof(fc.constant('Say hello'), fc.string({ minLength: 1, maxLength: 200 })),
      session: fc.constantFrom('default', 'fuzz'),
      delegationId: fc.oneof(
        fc.constantFrom(...pools.delegations),
        fc.stringMatching(/^f-[a-z0-9]{12}$/),
      ),
      background: fc.boolean(),
      unattended: fc.boolean(),
    },
    { requiredKeys: ['agent', 'task'] },
  );
  const mutated = fc.record(
    {
      agent: fc.oneof(fc.constant('demo'), fc.string({ maxLength: 20 }), fc.jsonValue()),
      task: fc.oneof(fc.string({ maxLength: 200 }), fc.jsonValue()),
      session: fc.oneof(fc.string({ maxLength: 70 }), idArbitrary(pools)),
      delegationId: idArbitrary(pools),
      background: fc.jsonValue(),
      unattended: fc.jsonValue(),
      extra: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((body) => JSON.stringify(body)) },
    { weight: 2, arbitrary: mutated.map((body) => JSON.stringify(body)) },
    { weight: 1, arbitrary: junkBodyArbitrary },
  );
}

const decideBodyArbitrary: fc.Arbitrary<string | undefined> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        { decision: fc.constantFrom('approve', 'deny'), reason: fc.string({ maxLength: 100 }) },
        { requiredKeys: ['decision'] },
      )
      .map((body) => JSON.stringify(body)),
  },
  {
    weight: 2,
    arbitrary: fc
      .record(
        { decision: fc.jsonValue(), reason: fc.oneof(fc.jsonValue(), fc.string()), x: fc.nat() },
        { requiredKeys: [] },
      )
      .map((body) => JSON.stringify(body)),
  },
  { weight: 1, arbitrary: junkBodyArbitrary },
);

/** Methods a fetch Request may carry (CONNECT, TRACE and TRACK are refused by undici itself). */
const anyMethodArbitrary = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
  fc
    .stringMatching(/^[A-Z]{1,12}$/)
    .filter((method) => !['CONNECT', 'TRACE', 'TRACK'].includes(method)),
);

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

interface Shape {
  method: string;
  path: string;
  body: string | undefined;
}

/** Requests shaped like a route (right method and path, mostly sensible bodies). */
function routeShapedArbitrary(pools: IdPools, query: fc.Arbitrary<string>): fc.Arbitrary<Shape> {
  const id = fc.tuple(idArbitrary(pools), fc.boolean()).map(([value, raw]) => segment(value, raw));
  const cardId = fc
    .tuple(cardIdArbitrary(pools), fc.boolean())
    .map(([value, raw]) => segment(value, raw));
  const get = (path: fc.Arbitrary<string>) =>
    fc.tuple(path, query).map(([p, q]) => ({ method: 'GET', path: p + q, body: undefined }));
  return fc.oneof(
    fc
      .tuple(query, startBodyArbitrary(pools))
      .map(([q, body]) => ({ method: 'POST', path: `/delegations${q}`, body })),
    get(fc.constantFrom('/delegations', '/health', '/openapi.json')),
    get(id.map((value) => `/delegations/${value}`)),
    get(id.map((value) => `/delegations/${value}/events`)),
    get(id.map((value) => `/sessions/${value}/cards`)),
    fc
      .tuple(id, fc.oneof(fc.constant(undefined), junkBodyArbitrary))
      .map(([value, body]) => ({ method: 'POST', path: `/delegations/${value}/stop`, body })),
    fc
      .tuple(cardId, decideBodyArbitrary)
      .map(([value, body]) => ({ method: 'POST', path: `/cards/${value}`, body })),
  );
}

/** Anything at all: any method on any path, routes included, with any body. */
function chaoticArbitrary(pools: IdPools, query: fc.Arbitrary<string>): fc.Arbitrary<Shape> {
  return fc
    .record({
      method: anyMethodArbitrary,
      path: fc.tuple(pathArbitrary(pools), query).map(([path, q]) => path + q),
      body: fc.oneof(startBodyArbitrary(pools), decideBodyArbitrary),
    })
    .map(({ method, path, body }) => ({ method, path, body }));
}

export function requestArbitrary(
  pools: IdPools,
  options: { wait?: boolean } = {},
): fc.Arbitrary<FuzzRequest> {
  // `?wait=true` waits for a result by design; on a queue nobody polls that is forever.
  const query =
    options.wait === false ? queryArbitrary.filter((q) => !/wait/i.test(q)) : queryArbitrary;
  return fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: routeShapedArbitrary(pools, query) },
        { weight: 1, arbitrary: chaoticArbitrary(pools, query) },
      ),
      headersArbitrary,
    )
    .map(([shape, headers]) => {
      const bodyless = shape.method === 'GET' || shape.method === 'HEAD';
      return { ...shape, headers, body: bodyless ? undefined : shape.body };
    });
}

export function toRequest(request: FuzzRequest): Request {
  return new Request(`http://localhost${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}

/**
 * Answers for the bound check, a hang a failure rather than a slow pass: `pending`, or a failure naming `what` when it has not settled within the budget: a hang
 * guard whose bound comes from a calibration in the same run (test/support/calibration.ts).
 */
export async function withinBound<T>(
  pending: Promise<T>,
  budget: Budget,
  what: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${budget.formula}: ${what}`)),
      budget.boundMs,
    );
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What every answer must be: never a 500; a 4xx or 5xx is JSON with a snake_case `error` code;
 * nothing echoes a long input back whole or carries a token. Reads the body (an event stream is
 * read up to its end, or cancelled by the caller's bound). Returns the status.
 */
export async function checkAnswer(request: FuzzRequest, response: Response): Promise<number> {
  const where = `${request.method} ${request.path.slice(0, 120)}`;
  expect(response.status, where).not.toBe(500);
  expect(response.status, where).toBeLessThan(600);
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    expect(response.status, where).toBe(200);
    await response.body?.cancel();
    return response.status;
  }
  const text = await response.text();
  if (request.method === 'HEAD') return response.status;
  const consolePage =
    request.method === 'GET' && URL.parse(`http://localhost${request.path}`)?.pathname === '/';
  if (consolePage && !type.includes('application/json')) {
    // A path that normalises to `/` (`/delegations/%2e%2e`) is the console's page: HTML, or a
    // plain 503 when the console is not built. (A refusal at the door is still JSON.)
    expect(type, where).toMatch(response.status === 200 ? /^text\/html/ : /^text\/plain/);
    return response.status;
  }
  expect(type, where).toContain('application/json');
  const body = JSON.parse(text) as Record<string, unknown>;
  if (response.status >= 400) {
    expect(body.error, `${where} -> ${text.slice(0, 200)}`).toMatch(/^[a-z_]+$/);
  }
  for (const token of Object.values(TOKENS)) expect(text, where).not.toContain(token);
  // A refusal never echoes what was sent whole. (A success may be long: the delegation list of a
  // dev server shared by the whole suite grows with every suite that runs before this one.)
  if (response.status >= 400) {
    expect(text.length, `${where}: answer too long`).toBeLessThan(16 * 1024);
  }
  return response.status;
}
