import { expect } from 'vitest';
import { DeputyError } from '../../src/errors.js';

/** The message of the `invalid` DeputyError `run` throws; fails the test if it throws none. */
export function invalidProblem(run: () => void): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DeputyError);
    expect((error as DeputyError).kind).toBe('invalid');
    return (error as Error).message;
  }
  throw new Error('expected an invalid error, got none');
}
