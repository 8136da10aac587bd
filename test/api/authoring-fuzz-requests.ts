/**
 * Generated requests for the authoring routes (test/api/authoring-fuzz.test.ts): create, update
 * (POST and PATCH), delete, duplicate, restore, detail, revisions, list, the catalogs and both
 * generation routes, plus any method on their paths. Bodies range from valid agents with one
 * field mutated to arbitrary JSON (deep, wide, huge strings, prototype keys, unicode, extreme
 * numbers), malformed JSON and the wrong content type; names and scopes in paths and queries are
 * hostile as often as not.
 *
 * Some parts are resolved when the request is sent, against the live state: a revision id taken
 * from the registry (so restores can succeed), and the echo round trip (GET the detail, change
 * one field, send it back, as an editor does).
 */
import fc from 'fast-check';
import { TOKENS } from './make-app.js';

const MIB = 1024 * 1024;

/** Markers JSON.stringify cannot write, replaced in the final text (see `toJsonText`). */
const RAW = '\u0000RAW:';
const PROTO_KEY = '\u0000PROTO';

/** JSON text put in verbatim: number tokens JSON.stringify cannot write, nesting it would overflow on. */
const raw = (text: string): string => `${RAW}${Buffer.from(text).toString('base64')}`;

/** `__proto__` as an own key and the raw fragments, as JSON.parse will see them. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value)
    .replace(/"\\u0000RAW:([A-Za-z0-9+/=]*)"/g, (_match, base64: string) =>
      Buffer.from(base64, 'base64').toString('utf8'),
    )
    .replaceAll(`"\\u0000PROTO"`, '"__proto__"');
}

const rawNumber = fc
  .constantFrom(
    '1e400',
    '-1e400',
    '-0',
    '0.0000000000000000000000001',
    '123456789012345678901234567890',
    '9007199254740993',
    '1E2',
    '5e-324',
  )
  .map(raw);

const extremeNumber = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1,
    1.5,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  rawNumber,
);

/** Keys that trip naive object handling, the definition fields and the placeholder itself. */
const hostileKey = fc.constantFrom(
  PROTO_KEY,
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '__redacted__',
  '',
  ' ',
  'name',
  'env',
  'headers',
  'oauth',
  'clientSecret',
  'mcpServers',
  'tools',
  'a.b',
  '0',
  '\u202e',
  '\ud83d\ude00',
);
const anyKey = fc.oneof(
  { weight: 2, arbitrary: hostileKey },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\n',
    '__redacted__',
    'x __redacted__ y',
    'Bearer __redacted__',
    '${HOME}',
    '${FUZZ_CONFIG_ENV}',
    '../../etc/passwd',
    '/etc/passwd',
    '\u0000',
    '\ud800',
    '\u202eevil',
    '---\nname: injected\n---',
    '"; rm -rf / #',
    'null',
    'a'.repeat(300),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const hugeString = fc
  .constantFrom(16 * 1024, 16 * 1024 + 1, 64 * 1024, 256 * 1024, 256 * 1024 + 1, 700 * 1024)
  .map((size) => 'x'.repeat(size));

/** Nested `depth` times, as arrays or objects: what recursion without a bound dies on. */
const deepValue = fc
  .tuple(fc.constantFrom(100, 10_000, 60_000), fc.boolean())
  .map(([depth, arrays]) =>
    raw(
      arrays
        ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
        : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
    ),
  );

/** Many keys or items: wide enough to stress loops and answer sizes (one issue each), built as text. */
const wideValue = fc.tuple(fc.constantFrom(1_000, 5_000), fc.boolean()).map(([width, array]) => {
  const items = Array.from({ length: width }, (_, i) =>
    array ? `"t${i}"` : `"k${i}":"__redacted__"`,
  );
  return raw(array ? `[${items.join(',')}]` : `{${items.join(',')}}`);
});

/** Arbitrary JSON, with the hostile keys, strings and numbers mixed in. */
const { tree: jsonish } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    extremeNumber,
    hostileString,
    fc.array(tie('tree'), { maxLength: 4 }),
    fc.dictionary(anyKey, tie('tree'), { maxKeys: 4 }),
  ),
}));

/** Any value a field could be sent: mostly small junk, sometimes deep, wide or huge. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 20, arbitrary: jsonish },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: wideValue },
  { weight: 1, arbitrary: hugeString },
);

/** Names: the seeded agents (every level), built-ins, free ones, and names no agent may have. */
export const SEEDED = ['alpha', 'beta', 'gamma', 'demo', 'eco'] as const;
const FREE_NAMES = ['ghost', 'fz-one', 'fz-two', 'constructor', 'prototype'] as const;

const validName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SEEDED, ...FREE_NAMES) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,12}$/) },
);

const hostileName = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'Alpha',
    'alpha ',
    'alpha.md',
    '..',
    '.',
    '-x',
    'a/b',
    'a\\b',
    'a%00b',
    '%2e%2e',
    '%zz',
    'x'.repeat(129),
    'x'.repeat(5000),
    '\u202ealpha',
    'alpha\n',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

const bodyName = fc.oneof(
  { weight: 4, arbitrary: validName },
  { weight: 1, arbitrary: hostileName },
  { weight: 1, arbitrary: jsonish },
);

/** A path segment: usually encoded, sometimes raw (then `/`, `?`, `#` and `%` mean what they mean). */
const pathName = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: validName }, { weight: 1, arbitrary: hostileName }),
    fc.nat(4),
  )
  .map(([name, raw]) => (raw === 0 ? name : encodeURIComponent(name)));

/** The agent a write route names: mostly a writable seeded one, so writes get as far as disk. */
const targetName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('alpha', 'beta', 'gamma') },
  { weight: 2, arbitrary: pathName },
);

const scopeValue = fc.oneof(
  fc.constantFrom('workspace', 'global'),
  fc.constantFrom(
    'project',
    'user',
    'builtin',
    'ecosystem',
    '',
    'everywhere',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 10 }),
);

/** `?scope=` / `?level=` as clients send them, and as they should not. */
const levelQuery = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constantFrom('?scope=workspace', '?scope=global') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?level=project',
      '?level=user',
      '?level=builtin',
      '?level=ecosystem',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.tuple(fc.constantFrom('scope', 'level', 'x', '__proto__', 'scope[]', ''), scopeValue),
        {
          minLength: 1,
          maxLength: 3,
        },
      )
      .map(
        (pairs) =>
          `?${pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&')}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?%zz=1',
      '?scope=%zz',
      '?scope',
      '?&&=&',
      '?scope=workspace&scope=global',
    ),
  },
);

/** Inline MCP servers, valid and near-valid, some echoing placeholders nothing stands behind. */
const inlineServer = fc.record(
  {
    name: fc.constantFrom('tracker', 'local', 'vault', 'remote', 'fresh', 'box'),
    transport: fc.constantFrom('stdio', 'http'),
    command: fc.constantFrom('npx', 'srv'),
    endpoint: fc.constantFrom('https://mcp.example/x', 'not a url'),
    env: fc.dictionary(
      fc.constantFrom('TOKEN', 'MODE', 'KEY', 'VAULT_TOKEN'),
      fc.constantFrom('__redacted__', 'plain', 'x__redacted__'),
    ),
    headers: fc.dictionary(
      fc.constantFrom('Authorization', 'X-Api-Key'),
      fc.constantFrom('__redacted__', 'Bearer __redacted__', 'v'),
    ),
    oauth: fc.record(
      {
        clientId: fc.constantFrom('deputy', ''),
        clientSecret: fc.constantFrom('__redacted__', 's3cr3t-value'),
      },
      { requiredKeys: ['clientId'] },
    ),
  },
  { requiredKeys: ['name', 'transport'] },
);

/** `mcpServers` in both spellings: deputy's list and qwen-code's record (`{}` = configured server). */
const mcpServersValue = fc.oneof(
  fc.array(fc.oneof(fc.constantFrom('vault', 'remote', 'nowhere'), inlineServer), { maxLength: 3 }),
  fc
    .array(inlineServer, { maxLength: 3 })
    .map((servers) =>
      Object.fromEntries(
        servers.map(({ name, transport, ...rest }) => [name, { type: transport, ...rest }]),
      ),
    ),
  fc.constant({ vault: {}, remote: {} }),
);

/** A valid value for each field a create or update may carry. */
const FIELD_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  description: fc.constantFrom('Reviews diffs', 'Does one thing well'),
  systemPrompt: fc.constantFrom('You review diffs.\n', 'Be brief.', ''),
  model: fc.constantFrom('default', 'scripted:scripts/gen.yaml', 'openai/none'),
  tools: fc.subarray(['read', 'grep', 'write', 'bash', 'edit', 'glob', 'FileSystem', 'mcp:vault']),
  disallowedTools: fc.subarray(['write', 'bash']),
  skills: fc.subarray(['notes', 'style']),
  mcpServers: mcpServersValue,
  knowledge: fc.constantFrom(
    [],
    [{ name: 'docs', glob: 'docs/**' }],
    [{ name: 'up', glob: '../x' }],
  ),
  memory: fc.constantFrom('none', 'private', 'shared'),
  maxTurns: fc.integer({ min: 1, max: 50 }),
  runConfig: fc.integer({ min: 1, max: 50 }).map((turns) => ({ max_turns: turns })),
  approvalMode: fc.constantFrom('confirm', 'auto-in-workspace', 'auto-edit', 'full-access'),
  permissionMode: fc.constantFrom('default', 'plan', 'acceptEdits'),
  background: fc.boolean(),
  hooks: fc.constantFrom(
    {},
    { Stop: [{ command: 'true' }] },
    { PreToolUse: [{ command: 'echo x', timeoutSeconds: 5 }] },
  ),
  color: fc.constantFrom('#ff0000', 'blue'),
  icon: fc.constantFrom('bot', 'eye'),
  displayOrder: fc.integer({ min: -5, max: 5 }),
};
const FIELDS = Object.keys(FIELD_VALUES);

/** One change to a body: a field replaced by anything, removed, cleared, or an unknown key added. */
export type Mutation =
  { kind: 'none' } | { kind: 'set'; key: string; value: unknown } | { kind: 'delete'; key: string };

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom(...FIELDS, 'name', 'scope', 'level'), anyValue)
      .map(([key, value]) => ({ kind: 'set' as const, key, value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...FIELDS), fc.constantFrom(null, [], {}))
      .map(([key, value]) => ({ kind: 'set' as const, key, value })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(hostileKey, anyValue)
      .map(([key, value]) => ({ kind: 'set' as const, key, value })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...FIELDS, 'name', 'description', 'systemPrompt')
      .map((key) => ({ kind: 'delete' as const, key })),
  },
);

export function applyMutation(
  body: Record<string, unknown>,
  mutation: Mutation,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  if (mutation.kind === 'set') {
    Object.defineProperty(out, mutation.key, {
      value: mutation.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else if (mutation.kind === 'delete') {
    delete out[mutation.key];
  }
  return out;
}

/** The fields an echo sends back: what the detail shows that a create or update also takes. */
export const ECHOED_FIELDS = [...FIELDS];

const createBody = fc
  .tuple(
    fc.record(
      {
        name: validName,
        description: FIELD_VALUES.description!,
        systemPrompt: FIELD_VALUES.systemPrompt!,
        scope: fc.constantFrom('workspace', 'global'),
        ...Object.fromEntries(
          FIELDS.filter(
            (field) => !['description', 'systemPrompt', 'runConfig'].includes(field),
          ).map((field) => [field, FIELD_VALUES[field]!]),
        ),
      },
      { requiredKeys: ['name', 'description', 'systemPrompt'] },
    ),
    mutationArbitrary,
  )
  .map(([body, mutation]) => applyMutation(body, mutation));

const updateBody = fc
  .tuple(
    fc.record(Object.fromEntries(FIELDS.map((field) => [field, FIELD_VALUES[field]!])), {
      requiredKeys: [],
    }),
    mutationArbitrary,
  )
  .map(([body, mutation]) => {
    const mutated = applyMutation(body, mutation);
    // maxTurns and runConfig.max_turns must agree: mostly send one of them.
    if ('maxTurns' in mutated && 'runConfig' in mutated && mutation.kind === 'none')
      delete mutated.runConfig;
    return mutated;
  });

const duplicateBody = fc.oneof(
  fc.record(
    {
      name: fc.constantFrom(...FREE_NAMES),
      scope: fc.constantFrom('workspace', 'global'),
      level: fc.constantFrom('project', 'user'),
    },
    { requiredKeys: ['name'] },
  ),
  fc
    .tuple(
      fc.record(
        { name: bodyName, scope: scopeValue, level: scopeValue },
        { requiredKeys: ['name'] },
      ),
      mutationArbitrary,
    )
    .map(([body, mutation]) => applyMutation(body, mutation)),
);

const generateBody = fc
  .tuple(
    fc.record(
      {
        prompt: fc.oneof(
          fc.constantFrom('A reviewer of diffs', '   ', ''),
          hostileString,
          hugeString,
        ),
        kind: fc.constantFrom('description', 'systemPrompt', 'text', 'other'),
      },
      { requiredKeys: [] },
    ),
    fc.option(fc.tuple(fc.constantFrom('prompt', 'kind', 'description', 'x'), anyValue), {
      freq: 3,
    }),
  )
  .map(([body, extra]) =>
    extra === null ? body : applyMutation(body, { kind: 'set', key: extra[0], value: extra[1] }),
  );

const generateAgentBody = fc.oneof(
  fc.record(
    { prompt: fc.constantFrom('Reviews pull requests for security', '') },
    { requiredKeys: [] },
  ),
  fc.record({ description: fc.constantFrom('Writes changelogs', '   ') }, { requiredKeys: [] }),
  fc.record({ prompt: hostileString, description: hostileString }, { requiredKeys: [] }),
  fc.dictionary(anyKey, anyValue, { maxKeys: 3 }),
);

/** Bodies that are not what the route reads: not JSON, not an object, or not a size it takes. */
const junkBody: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '"x"',
    '0',
    'true',
    '{',
    '{"name":',
    '{"a":1}}',
    '\u0000',
    'NaN',
    '{"name": NaN}',
    "{'name': 'x'}",
    '{"name":"x",}',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json(),
  fc.constantFrom(1_000, 100_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc
    .constantFrom(MIB - 64, MIB + 1, 3 * MIB)
    .map((size) =>
      JSON.stringify({ name: 'fz-one', description: 'd', systemPrompt: 'x'.repeat(size) }),
    ),
);

/** A JSON body for a route: the route's own shape (mutated), arbitrary JSON, or junk. */
function bodyOf(shape: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: shape.map(toJsonText) },
    { weight: 1, arbitrary: anyValue.map(toJsonText) },
    { weight: 1, arbitrary: junkBody },
  );
}

/** Who sends it: with auth on, mostly the admin, and every kind of non-admin. */
export type Who = 'admin' | 'owner' | 'reader' | 'none' | 'wrong';
const whoArbitrary: fc.Arbitrary<Who> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('admin' as const) },
  { weight: 2, arbitrary: fc.constantFrom('owner' as const, 'reader' as const) },
  { weight: 1, arbitrary: fc.constantFrom('none' as const, 'wrong' as const) },
);

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'application/yaml',
    ),
  },
);

/** Which route a request meant, for counting and for the checks that depend on it. */
export type RouteKind =
  | 'create'
  | 'update'
  | 'delete'
  | 'duplicate'
  | 'restore'
  | 'detail'
  | 'revisions'
  | 'list'
  | 'tools'
  | 'models'
  | 'generate'
  | 'generate-agent'
  | 'echo'
  | 'chaos';

/** A revision id: one the registry has now (by index, of some agent), or one it cannot have. */
export type RevisionRef = { live: string; index: number } | { literal: string };

export interface AuthoringRequest {
  route: RouteKind;
  method: string;
  /** May hold `{rev}`, replaced by the resolved revision. */
  path: string;
  body: string | undefined;
  contentType: string | undefined;
  who: Who;
  revision?: RevisionRef;
  /** For `echo`: the agent to read, the level query, the change to make, and how to send it. */
  echo?: { name: string; query: string; mutation: Mutation };
}

const revisionRef: fc.Arbitrary<RevisionRef> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...SEEDED, ...FREE_NAMES), fc.nat(5))
      .map(([live, index]) => ({ live, index })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          '20990101T000000000Z-deadbeef',
          'ZZZZZZZZZZZZZZZZZZZ-00000000',
          '..',
          '%2e%2e',
          'latest',
          '0',
          'x'.repeat(300),
        ),
        fc.stringMatching(/^[0-9TZ]{19}-[0-9a-f]{8}$/),
        fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent),
      )
      .map((literal) => ({ literal })),
  },
);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

type Shape = Omit<AuthoringRequest, 'contentType' | 'who'>;

const shapes: fc.Arbitrary<Shape> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(bodyOf(createBody), fc.constantFrom('', '?scope=global', '?x=1'))
      .map(([body, query]) => ({
        route: 'create' as const,
        method: 'POST',
        path: `/workspace/agents${query}`,
        body,
      })),
  },
  {
    weight: 6,
    arbitrary: fc
      .tuple(targetName, levelQuery, fc.constantFrom('POST', 'PATCH'), bodyOf(updateBody))
      .map(([name, query, method, body]) => ({
        route: 'update' as const,
        method,
        path: `/workspace/agents/${name}${query}`,
        body,
      })),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...SEEDED),
        levelQuery,
        fc.constantFrom('POST', 'PATCH'),
        mutationArbitrary,
      )
      .map(([name, query, method, mutation]) => ({
        route: 'echo' as const,
        method,
        path: `/workspace/agents/${name}${query}`,
        body: undefined,
        echo: { name, query, mutation },
      })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(targetName, levelQuery, fc.option(junkBody, { freq: 4 }))
      .map(([name, query, body]) => ({
        route: 'delete' as const,
        method: 'DELETE',
        path: `/workspace/agents/${name}${query}`,
        body: body ?? undefined,
      })),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.oneof(fc.constantFrom(...SEEDED), pathName), levelQuery, bodyOf(duplicateBody))
      .map(([name, query, body]) => ({
        route: 'duplicate' as const,
        method: 'POST',
        path: `/workspace/agents/${name}/duplicate${query}`,
        body,
      })),
  },
  {
    // A revision of the agent the path names (beta and ghost have one from the start).
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('beta', 'ghost', 'alpha'), fc.nat(3), fc.option(junkBody, { freq: 6 }))
      .map(([name, index, body]) => ({
        route: 'restore' as const,
        method: 'POST',
        path: `/workspace/agents/${name}/revisions/{rev}/restore`,
        body: body ?? undefined,
        revision: { live: name, index },
      })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(pathName, revisionRef, fc.option(junkBody, { freq: 4 }))
      .map(([name, revision, body]) => ({
        route: 'restore' as const,
        method: 'POST',
        path: `/workspace/agents/${name}/revisions/{rev}/restore`,
        body: body ?? undefined,
        revision,
      })),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(pathName, levelQuery).map(([name, query]) => ({
      route: 'detail' as const,
      method: 'GET',
      path: `/workspace/agents/${name}${query}`,
      body: undefined,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(pathName, levelQuery).map(([name, query]) => ({
      route: 'revisions' as const,
      method: 'GET',
      path: `/workspace/agents/${name}/revisions${query}`,
      body: undefined,
    })),
  },
  {
    weight: 1,
    arbitrary: levelQuery.map((query) => ({
      route: 'list' as const,
      method: 'GET',
      path: `/workspace/agents${query}`,
      body: undefined,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('tools', 'models')
      .map((what) => ({ route: what, method: 'GET', path: `/workspace/${what}`, body: undefined })),
  },
  {
    weight: 2,
    arbitrary: bodyOf(generateBody).map((body) => ({
      route: 'generate' as const,
      method: 'POST',
      path: '/workspace/generate',
      body,
    })),
  },
  {
    weight: 1,
    arbitrary: bodyOf(generateAgentBody).map((body) => ({
      route: 'generate-agent' as const,
      method: 'POST',
      path: '/workspace/agents/generate',
      body,
    })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        method: fc.constantFrom(...METHODS),
        path: fc.oneof(
          pathName.map((name) => `/workspace/agents/${name}`),
          pathName.map((name) => `/workspace/agents/${name}/duplicate`),
          fc
            .tuple(pathName, fc.webSegment())
            .map(([name, rest]) => `/workspace/agents/${name}/${rest}`),
          fc
            .tuple(pathName, revisionRef)
            .map(([name]) => `/workspace/agents/${name}/revisions/{rev}/restore`),
          fc.constantFrom(
            '/workspace/agents',
            '/workspace/tools',
            '/workspace/models',
            '/workspace/generate',
            '/workspace/agents/generate',
            '/workspace',
            '/workspace/agents/',
          ),
        ),
        query: levelQuery,
        body: fc.oneof(bodyOf(createBody), bodyOf(updateBody), junkBody),
        revision: revisionRef,
      })
      .map(({ method, path, query, body, revision }) => ({
        route: 'chaos' as const,
        method,
        path: path + query,
        body,
        revision,
      })),
  },
);

export const authoringRequestArbitrary = (options: {
  auth: boolean;
}): fc.Arbitrary<AuthoringRequest> =>
  fc
    .tuple(shapes, contentType, options.auth ? whoArbitrary : fc.constant('none' as const))
    .map(([shape, type, who]) => {
      const bodyless = shape.method === 'GET' || shape.method === 'HEAD';
      return { ...shape, body: bodyless ? undefined : shape.body, contentType: type, who };
    });

export function authorization(who: Who): Record<string, string> {
  if (who === 'none') return {};
  if (who === 'wrong') return { authorization: 'Bearer tok-not-configured' };
  return { authorization: `Bearer ${TOKENS[who]}` };
}
