// @ts-check
/**
 * The import directions of DESIGN.md, one rule per boundary, so a wrong arrow fails
 * `npm run lint`, not a review. Each entry names the folders it governs and the imports they
 * may not make; test/lint/boundaries.test.ts holds every rule against a file that breaks it.
 */

/** @typedef {{ regex: string, message: string, allowTypeImports?: boolean }} Forbidden */

const SANDBOX_PACKAGES = '@temporalio/(workflow|common)$';

/** @type {Array<{ folders: string[], forbidden: Forbidden[] }>} */
export const BOUNDARIES = [
  {
    // The workflow sandbox: deterministic code only. Node modules, the Node-side Temporal
    // packages and Node-side project code would break replay or fail to bundle.
    folders: ['src/workflows'],
    forbidden: [
      {
        regex: `^(?!\\./|\\.\\./(shared|policy)/|\\.\\./activities/|${SANDBOX_PACKAGES})`,
        message:
          'Workflow code runs in the Temporal sandbox: it imports ./, ../shared/, ../policy/, ' +
          '@temporalio/workflow and @temporalio/common only.',
      },
      {
        regex: '^\\.\\./activities/',
        allowTypeImports: true,
        message: 'Workflows reach activities through proxyActivities: `import type` only.',
      },
    ],
  },
  {
    // Contracts the sandbox imports: they must stay deterministic and Node-free.
    folders: ['src/shared'],
    forbidden: [
      {
        regex: `^(?!\\./|${SANDBOX_PACKAGES})`,
        message:
          'src/shared holds sandbox-safe contracts: it imports nothing else of the project and no Node module.',
      },
    ],
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
    folders: ['src/cli', 'src/api'],
    forbidden: [
      {
        regex: '^\\.\\./activities/',
        message: 'cli/ and api/ never import activities/: compose in src/worker.ts.',
      },
      {
        regex: '^\\.\\./workflows/',
        message: 'cli/ and api/ reach workflows through src/temporal/ and src/shared/.',
      },
    ],
  },
  {
    // The cluster profile is infrastructure: it starts Temporal and PostgreSQL and knows nothing
    // of what runs on them, so the front doors and tests can start it without the runtime.
    folders: ['src/cluster'],
    forbidden: [
      {
        regex: '^\\.\\./(activities|workflows|api|cli|capabilities|tools|definitions)/',
        message: 'cluster/ starts Temporal and PostgreSQL only: it never imports the runtime.',
      },
    ],
  },
  {
    // The web console runs in a browser: the server's sources reach it as types only (the API's
    // shapes), never as code, and no Node module does.
    folders: ['web/src'],
    forbidden: [
      {
        regex: '^(\\.\\./)+src/',
        allowTypeImports: true,
        message: 'web/src imports the server sources as `import type` only (the API is its door).',
      },
      {
        regex: '^node:',
        message: 'web/src runs in a browser: no Node modules.',
      },
    ],
  },
];

/**
 * The boundaries as flat-config entries (one `no-restricted-imports` per folder).
 * @returns {import('eslint').Linter.Config[]}
 */
export function boundaryConfigs() {
  return BOUNDARIES.map(({ folders, forbidden }) => ({
    files: folders.flatMap((folder) => [`${folder}/**/*.ts`, `${folder}/**/*.tsx`]),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        /** @type {const} */ ('error'),
        {
          patterns: forbidden.map(({ regex, message, allowTypeImports }) => ({
            regex,
            message,
            ...(allowTypeImports === undefined ? {} : { allowTypeImports }),
          })),
        },
      ],
    },
  }));
}
