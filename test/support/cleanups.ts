import { afterEach } from 'vitest';

/**
 * Undo steps for the current test file, run newest first after each test (servers, workers,
 * harnesses): push as soon as something is started, so a failing assertion leaves nothing behind.
 */
export function useCleanups(): Array<() => Promise<void>> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  return cleanups;
}
