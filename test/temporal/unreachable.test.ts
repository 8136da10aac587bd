import { describe, expect, it } from 'vitest';
import { describeFailure, EXIT } from '../../src/cli/exit-codes.js';
import { DeputyError } from '../../src/errors.js';
import {
  connectionFailureReason,
  isConnectionFailure,
  TemporalUnreachableError,
} from '../../src/temporal/unreachable.js';

/** What the SDK throws: a ServiceError whose cause is the gRPC error with its status code. */
function serviceError(code: number): Error {
  return new Error('Failed to describe workflow', {
    cause: Object.assign(new Error(`${code} grpc`), { code }),
  });
}

describe('Temporal unreachable', () => {
  it('tells a refused connection and a missed deadline from every other failure', () => {
    expect(isConnectionFailure(serviceError(14))).toBe(true);
    expect(isConnectionFailure(serviceError(4))).toBe(true);
    expect(connectionFailureReason(serviceError(14))).toBe('connection refused or lost');
    expect(connectionFailureReason(serviceError(4))).toBe('no answer in time');
    // NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED: Temporal answered.
    for (const code of [5, 6, 7]) expect(isConnectionFailure(serviceError(code))).toBe(false);
    expect(isConnectionFailure(new Error('boom'))).toBe(false);
    expect(isConnectionFailure('14')).toBe(false);
  });

  it('is an `unavailable` DeputyError (503) that the CLI answers with exit 5 and the start hint', () => {
    const error = new TemporalUnreachableError('Temporal is not reachable (no answer in time)');
    expect(error).toBeInstanceOf(DeputyError);
    expect(error.kind).toBe('unavailable');
    expect(describeFailure(error)).toEqual({
      code: EXIT.unreachable,
      message: expect.stringMatching(/not reachable[\s\S]*hint: start one with `deputy dev`/),
    });
    // A plain `unavailable` (a worker is missing) keeps its worker hint.
    expect(describeFailure(new DeputyError('unavailable', 'no worker')).message).toContain(
      'deputy worker',
    );
  });
});
