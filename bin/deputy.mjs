#!/usr/bin/env node
// Runs the TypeScript CLI in-process through tsx, so a clone needs no build step. tsx is told
// which tsconfig to use: left to itself it reads `tsconfig.json` from the current directory,
// which is the workspace, a file an agent may write (its `paths` would redirect deputy's imports).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/cli/main.ts');
