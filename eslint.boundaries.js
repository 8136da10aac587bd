// @ts-check
/**
 * The import directions of the layout (the README's "Layout and import directions"), one rule
 * per boundary, so a wrong arrow fails `npm run lint`, not a review. Each entry names the folders
 * it governs and the imports they may not make; test/lint/boundaries.test.ts holds every rule
 * against a file that breaks it.
 *
 * Two kinds of entry: `forbidden` lists imports a folder may not make, whatever the file's depth
 * (write `(\.\./)+` where a nested file climbs further); `onlyAreas` lists the only places a
 * folder may import from outside itself, measured from each file's depth, so a nested folder
 * (`src/definitions/read/`) reaches its siblings freely and leaves only towards those places.
 * `depths: [1]` keeps an entry to the folder's own files, when a subfolder has a rule of its own.
 * ESLint keeps one option list per rule and file, so every file gets all its folder's patterns
 * merged into one entry (boundaryConfigs).
 */

/** @typedef {{ regex: string, message: string, allowTypeImports?: boolean }} Forbidden */
/** @typedef {{ folders: string[], depths?: number[], forbidden?: Forbidden[], onlyAreas?: { areas: string[], message: string } }} Boundary */

const SANDBOX_PACKAGES = '@temporalio/(workflow|common)$';
/**
 * The workflows' tracing (spans started inside the sandbox) adds OpenTelemetry's API, its W3C
 * trace-context propagator (one module, not the SDK's index) and the parts of Temporal's
 * OpenTelemetry package made for the sandbox: its context manager, its instrumentation helpers,
 * its span types.
 */
const WORKFLOW_TRACING_PACKAGES =
  '@opentelemetry/api$|@opentelemetry/core/build/src/trace/W3CTraceContextPropagator\\.js$|@temporalio/interceptors-opentelemetry/lib/(workflow/(context-manager|definitions)|instrumentation)\\.js$';

/**
 * The front doors reach Temporal through these modules only: the facades, their ids and types,
 * the connection, the start requests, the unreachable error, and a schedule's names, types and
 * create request (validated at the door before the facade is called).
 */
const TEMPORAL_DOORS =
  '(connection|facades|start-requests|unreachable)\\.js$|delegations/(facade|ids|types)\\.js$|sessions/(facade|types)\\.js$|schedules/(create-request|names|types)\\.js$';

/** @type {Boundary[]} */
export const BOUNDARIES = [
  {
    // The workflow sandbox: deterministic code only. Node modules, the Node-side Temporal
    // packages and Node-side project code would break replay or fail to bundle.
    folders: ['src/workflows'],
    forbidden: [
      {
        regex: `^(?!\\.|${SANDBOX_PACKAGES}|${WORKFLOW_TRACING_PACKAGES})`,
        message:
          'Workflow code runs in the Temporal sandbox: of packages, @temporalio/workflow and @temporalio/common only (and OpenTelemetry for tracing).',
      },
      {
        regex: '^(\\.\\./)+activities/',
        allowTypeImports: true,
        message: 'Workflows reach activities through proxyActivities: `import type` only.',
      },
    ],
    onlyAreas: {
      areas: ['shared', 'policy', 'activities'],
      message:
        'Workflow code runs in the Temporal sandbox: of the project, workflows/, shared/ and policy/ only (activities as types).',
    },
  },
  {
    // Contracts the sandbox imports: they must stay deterministic and Node-free.
    folders: ['src/shared'],
    forbidden: [
      {
        regex: `^(?!\\.|${SANDBOX_PACKAGES})`,
        message:
          'src/shared holds sandbox-safe contracts: no Node module, no package but Temporal’s sandbox ones.',
      },
    ],
    onlyAreas: {
      areas: [],
      message: 'src/shared holds sandbox-safe contracts: it imports nothing else of the project.',
    },
  },
  {
    folders: ['src/policy'],
    forbidden: [
      {
        regex: '^(?!\\./|\\.\\./shared/)',
        message: 'src/policy is pure and sandbox-safe: it imports ./ and ../shared/ only.',
      },
    ],
  },
  {
    // The one Node-side path check sits under everything that touches files: it knows nothing
    // above it, so tools, models, definitions and the composition root can all use it.
    folders: ['src/paths'],
    forbidden: [
      {
        regex: '^(?!\\./|\\.\\./shared/|node:)',
        message: 'src/paths imports ./, ../shared/ and node: modules only.',
      },
    ],
  },
  {
    // Both read tool contracts from src/shared; neither knows the other's code.
    folders: ['src/tools'],
    forbidden: [
      {
        regex: '^\\.\\./capabilities/',
        message: 'src/tools never imports src/capabilities (contracts live in src/shared).',
      },
    ],
  },
  {
    folders: ['src/capabilities'],
    forbidden: [
      {
        regex: '^\\.\\./tools/',
        message: 'src/capabilities never imports src/tools (contracts live in src/shared).',
      },
    ],
  },
  {
    // The front doors reach the runtime through the Temporal facade, never its insides.
    folders: ['src/cli', 'src/api', 'src/mcp-door'],
    forbidden: [
      {
        regex: '^(\\.\\./)+activities/',
        message:
          'cli/, api/ and mcp-door/ never import activities/: compose in src/worker/worker.ts.',
      },
      {
        regex: '^(\\.\\./)+workflows/',
        message: 'cli/, api/ and mcp-door/ reach workflows through src/temporal/ and src/shared/.',
      },
      {
        regex: `^(\\.\\./)+temporal/(?!${TEMPORAL_DOORS})`,
        message:
          'cli/, api/ and mcp-door/ reach src/temporal/ through its facades, ids, types, connection and start requests only.',
      },
    ],
  },
  {
    // Two front doors side by side: what both need lives below them (src/mcp-client, src/temporal...).
    folders: ['src/cli'],
    forbidden: [
      {
        regex: '^(\\.\\./)+api/',
        message: 'cli/ never imports api/: move what both need below them.',
      },
    ],
  },
  {
    // The MCP door is a front door beside the API and the CLI: both mount it (`/mcp`, `deputy
    // mcp serve`), so it knows neither.
    folders: ['src/mcp-door'],
    forbidden: [
      {
        regex: '^(\\.\\./)+(api|cli)/',
        message: 'mcp-door/ never imports api/ or cli/: they mount it.',
      },
    ],
  },
  {
    // Who may see, stop and decide what: read by every door, so it sits below them all.
    folders: ['src/rights'],
    forbidden: [
      {
        regex: `^(\\.\\./)+temporal/(?!${TEMPORAL_DOORS})`,
        message: 'rights/ reads delegations through the Temporal facade only.',
      },
    ],
    onlyAreas: {
      areas: ['shared', 'capabilities', 'temporal', 'errors.js'],
      message:
        'rights/ imports shared/, capabilities/, temporal/ (its facades) and errors.js only.',
    },
  },
  {
    // What every door asks of the runtime, built once: a card decided as its caller (rights, then
    // the facade), the one decision body. Below the three doors, so each imports it and none
    // another door.
    folders: ['src/asks'],
    forbidden: [
      {
        regex: `^(\\.\\./)+temporal/(?!${TEMPORAL_DOORS})`,
        message: 'asks/ reaches Temporal through its facades only, as the doors do.',
      },
    ],
    onlyAreas: {
      areas: ['shared', 'rights', 'secrets', 'temporal', 'errors.js'],
      message:
        'asks/ sits below the doors: it imports shared/, rights/, secrets/, temporal/ (its facades) and errors.js only.',
    },
  },
  {
    // What starts and watches a Temporal server (the dev server, the cluster profile) is
    // infrastructure: it knows nothing of what runs on it, so tests and benches start it alone.
    folders: ['src/servers'],
    onlyAreas: {
      areas: ['shared', 'paths', 'processes', 'config', 'errors.js'],
      message:
        'servers/ starts Temporal and PostgreSQL: it imports shared/, paths/, processes/, config/ and errors.js only.',
    },
  },
  {
    // The activities are composed by the worker: they know the runtime below them, never a door.
    folders: ['src/activities'],
    onlyAreas: {
      areas: [
        'shared',
        'config',
        'secrets',
        'mcp-client',
        'models',
        'tools',
        'paths',
        'policy',
        'metrics',
        'tracing',
        'errors.js',
      ],
      message:
        'activities/ imports what runs below it (tools, mcp, models, policy, secrets, config, paths, shared, metrics, tracing), never a door, the worker or Temporal.',
    },
  },
  {
    // The Temporal side of the doors: the facades over the client, the calls they make, the
    // schedules. It wraps the runtime below it and knows no door, the worker, the activities or
    // the workflows (it reaches them through Temporal, by name).
    folders: ['src/temporal'],
    onlyAreas: {
      areas: [
        'shared',
        'policy',
        'capabilities',
        'config',
        'secrets',
        'metrics',
        'tracing',
        'servers',
        'errors.js',
      ],
      message:
        'temporal/ imports shared/, policy/, capabilities/, config/, secrets/, metrics/, tracing/, servers/ and errors.js only: never a door, the worker, activities or workflows.',
    },
  },
  {
    // What the process counts, and how it is printed: read by the activities, the worker and the
    // API's metrics routes, so it sits below them all.
    folders: ['src/metrics'],
    onlyAreas: {
      areas: ['shared', 'config', 'mcp-client'],
      message: 'metrics/ imports shared/, config/ and mcp-client/ (its status types) only.',
    },
  },
  {
    // Child-process plumbing under the tools, the MCP clients and the servers: it knows nothing
    // of the project.
    folders: ['src/processes'],
    onlyAreas: {
      areas: [],
      message: 'processes/ imports nothing else of the project: everything that spawns uses it.',
    },
  },
  {
    // The sandbox runner turns declared bounds into a bwrap command line: below the tools that
    // call it, it reads only the contracts it applies.
    folders: ['src/sandbox'],
    onlyAreas: {
      areas: ['shared'],
      message:
        'sandbox/ imports shared/ (the bounds it applies) only: everything that spawns uses it.',
    },
  },
  {
    // The composition root: it builds the activities and the worker from everything below it;
    // of the doors, only the worker's own metrics endpoint.
    folders: ['src/worker'],
    onlyAreas: {
      areas: [
        'shared',
        'config',
        'secrets',
        'paths',
        'definitions',
        'capabilities',
        'tools',
        'mcp-client',
        'activities',
        'metrics',
        'tracing',
        'temporal',
        'api/metrics',
        'named-executables.js',
      ],
      message:
        'worker/ composes the runtime below it: of the doors, only api/metrics/ (its metrics endpoint); never cli/ or mcp-door/.',
    },
  },
  {
    // Tracing sits below the worker, the activities and the connection that use it.
    folders: ['src/tracing'],
    onlyAreas: {
      areas: ['shared', 'config', 'secrets'],
      message: 'tracing/ imports shared/, config/ and secrets/ only.',
    },
  },
  {
    folders: ['src/models'],
    onlyAreas: {
      areas: ['shared', 'config', 'paths', 'errors.js'],
      message: 'models/ imports shared/, config/, paths/ and errors.js only.',
    },
  },
  {
    folders: ['src/definitions'],
    onlyAreas: {
      areas: ['shared', 'policy', 'config', 'models', 'paths', 'errors.js'],
      message:
        'definitions/ imports shared/, policy/, config/, models/, paths/ and errors.js only.',
    },
  },
  {
    folders: ['src/mcp-client'],
    onlyAreas: {
      areas: [
        'shared',
        'config',
        'definitions',
        'capabilities',
        'tools',
        'processes',
        'paths',
        'secrets',
        'errors.js',
      ],
      message:
        'mcp/ imports what it runs on (tools, capabilities, definitions, processes, secrets, config, paths, shared), never a door or Temporal.',
    },
  },
  {
    // The maskers read the configuration and the definitions' inline secrets, nothing above.
    folders: ['src/secrets'],
    onlyAreas: {
      areas: ['shared', 'config', 'definitions', 'paths', 'errors.js'],
      message: 'secrets/ imports shared/, config/, definitions/, paths/ and errors.js only.',
    },
  },
  {
    folders: ['src/config'],
    onlyAreas: {
      areas: ['shared', 'paths', 'json-problem.js'],
      message:
        'config/ imports shared/, paths/ and json-problem.js only: everything else reads it.',
    },
  },
  {
    // The web console runs in a browser: the server's sources reach it as types only (the API's
    // shapes, from its one contract module), never as code, and no Node module does.
    folders: ['web/src'],
    forbidden: [
      {
        regex: '^(\\.\\./)+src/api/(?!contract\\.js$)',
        message: "web/src takes the API's shapes from src/api/contract.ts only.",
      },
      {
        // Not src/api/: a type import matching an `allowTypeImports` pattern skips every pattern.
        regex: '^(\\.\\./)+src/(?!api/)',
        allowTypeImports: true,
        message: 'web/src imports the server sources as `import type` only (the API is its door).',
      },
      {
        regex: '^node:',
        message: 'web/src runs in a browser: no Node modules.',
      },
    ],
  },
  {
    // `deputy/client` is the other side of HTTP, loaded by programs that are no server: its own
    // files run on fetch alone and take the API's shapes as types, so importing it loads neither
    // the app nor the registry nor a Temporal SDK.
    folders: ['src/client'],
    depths: [1],
    forbidden: [
      {
        regex: '^\\.\\./(?!api/(?!contract\\.js$))',
        allowTypeImports: true,
        message:
          'deputy/client (src/client) imports the project as `import type` only: code that needs the server goes in client/local/.',
      },
      {
        regex: '^\\.\\./api/(?!contract\\.js$)',
        message: "src/client takes the API's shapes from src/api/contract.ts.",
      },
      {
        regex: '^(?!\\.)',
        allowTypeImports: true,
        message:
          'deputy/client (src/client) loads no package and no Node module: fetch is its transport.',
      },
    ],
  },
  {
    // `deputy/client/local` serves the API's own app in-process over a Temporal connection.
    folders: ['src/client/local'],
    forbidden: [
      {
        regex: '^(\\.\\./)+api/(?!contract\\.js$|app\\.js$|http/auth\\.js$)',
        message:
          "src/client/local takes the API's shapes from src/api/contract.ts, and the app and its auth to serve it.",
      },
    ],
  },
];

/** Nesting depths measured under a folder: its own files (1) and three folders down. */
const DEPTHS = [1, 2, 3, 4];

/**
 * Leaves the folder from a file `depth` levels down, towards anything but `areas`.
 * @param {number} depth
 * @param {string[]} areas
 */
function outsideAreas(depth, areas) {
  const up = '\\.\\./'.repeat(depth);
  const names = areas.map((area) => area.replace(/\./g, '\\.'));
  const folders = names.filter((name) => !name.endsWith('\\.js'));
  const files = names.filter((name) => name.endsWith('\\.js'));
  const kept = [
    ...(folders.length === 0 ? [] : [`(${folders.join('|')})/`]),
    ...(files.length === 0 ? [] : [`(${files.join('|')})$`]),
  ].join('|');
  // Nothing kept: any step out of the folder is refused (an empty lookahead would refuse none).
  return kept === '' ? `^${up}(?!\\.\\./)` : `^${up}(?!\\.\\./)(?!${kept})`;
}

/**
 * The boundaries as flat-config entries: one `no-restricted-imports` per file pattern, every
 * boundary that governs those files merged into it.
 * @returns {import('eslint').Linter.Config[]}
 */
export function boundaryConfigs() {
  /** @type {Map<string, Forbidden[]>} */
  const byGlob = new Map();
  /** @type {(glob: string, patterns: Forbidden[]) => void} */
  const add = (glob, patterns) => {
    byGlob.set(glob, [...(byGlob.get(glob) ?? []), ...patterns]);
  };
  for (const { folders, depths = DEPTHS, forbidden = [], onlyAreas } of BOUNDARIES) {
    for (const folder of folders) {
      for (const depth of depths) {
        const glob = `${folder}/${'*/'.repeat(depth - 1)}*`;
        const patterns = [...forbidden];
        if (onlyAreas !== undefined) {
          patterns.push({
            regex: outsideAreas(depth, onlyAreas.areas),
            message: onlyAreas.message,
          });
        }
        add(glob, patterns);
      }
    }
  }
  return [...byGlob].map(([glob, patterns]) => ({
    files: [`${glob}.ts`, `${glob}.tsx`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        /** @type {const} */ ('error'),
        {
          patterns: patterns.map(({ regex, message, allowTypeImports }) => ({
            regex,
            message,
            ...(allowTypeImports === undefined ? {} : { allowTypeImports }),
          })),
        },
      ],
    },
  }));
}
