// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { boundaryConfigs } from './eslint.boundaries.js';

export default tseslint.config(
  { ignores: ['node_modules/**', '.deputy/**', 'dist/**', 'coverage/**', 'bin/**', 'web/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // No function over 100 lines in src/ or web/src: a longer one holds more than one idea. The
  // register* tables (one entry per route or command) say so where they are, with the rule
  // turned off for that function alone. React components and hooks count as functions too: a long
  // component splits into named sections, a long hook into smaller hooks and plain helpers.
  {
    files: ['src/**/*.ts', 'web/src/**/*.ts', 'web/src/**/*.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 100, IIFEs: true }] },
  },
  // The web console (web/): React's rules of hooks on top of the same TypeScript rules.
  {
    files: ['web/src/**/*.tsx', 'web/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...boundaryConfigs(),
);
