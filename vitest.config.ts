import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Temporal's native bridge is not safe to load in worker threads; forks isolate it.
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
