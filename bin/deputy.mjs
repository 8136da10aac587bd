#!/usr/bin/env node
// The `deputy` command. Installed, the package runs its compiled JavaScript (`dist/`). In a clone
// (`src/` beside this folder) it runs the TypeScript source through tsx, a devDependency, so
// development needs no build step; DEPUTY_COMPILED=1 runs a clone's `dist/` instead (after
// `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(fileURLToPath(source)) && process.env.DEPUTY_COMPILED !== '1') {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(
      'deputy: running from source needs the devDependencies (npm install without --omit=dev),\n' +
        'or a build: npm run build, then DEPUTY_COMPILED=1\n',
    );
    process.exit(2);
  }
  // tsx is told which tsconfig to use: left to itself it reads `tsconfig.json` from the current
  // directory, which is the workspace, a file an agent may write (its `paths` would redirect
  // deputy's imports).
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  await import(source.href);
} else {
  await import('../dist/cli/main.js');
}
