// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.deputy/**', 'dist/**', 'coverage/**', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // The workflow sandbox: deterministic code only. Node modules and the non-workflow
    // Temporal packages would break replay or fail to bundle.
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'net', 'http'],
              message: 'Workflow code runs in the Temporal sandbox: no Node modules.',
            },
            {
              group: ['@temporalio/activity', '@temporalio/client', '@temporalio/worker'],
              message: 'Only @temporalio/workflow and @temporalio/common inside workflows.',
            },
            {
              group: [
                '../activities/*',
                '../api/*',
                '../cli/*',
                '../temporal/*',
                '../tools/*',
                '../models/*',
                '../definitions/*',
                '../capabilities/*',
                '../mcp/*',
                '../config.js',
              ],
              message: 'Workflows import shared contracts and activity types only.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
