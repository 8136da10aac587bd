import { describe, expect, it } from 'vitest';
import { describeFailure, EXIT } from '../../src/cli/exit-codes.js';
import { DeputyError } from '../../src/errors.js';
import {
  connectionFailureReason,
  isConnectionFailure,
  TemporalUnreachableError,
  unconfirmedStart,
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

  it('says an unanswered start may still happen, and where to look; a refused one stays plain', () => {
    const started = { what: 'delegation d-1', lookUp: 'GET /delegations/d-1' };
    const late = new TemporalUnreachableError('Temporal is not reachable (no answer in time)', {
      cause: serviceError(4),
    });
    const wrapped = unconfirmedStart(late, started) as TemporalUnreachableError;
    expect(wrapped).toBeInstanceOf(TemporalUnreachableError);
    expect(wrapped.message).toBe(
      'Temporal is not reachable (no answer in time). The start of delegation d-1 was not confirmed and may still happen: look it up (GET /delegations/d-1) before starting it again',
    );
    const refused = new TemporalUnreachableError('Temporal is not reachable (refused)', {
      cause: serviceError(14),
    });
    expect(unconfirmedStart(refused, started)).toBe(refused);
    const other = new Error('bad input');
    expect(unconfirmedStart(other, started)).toBe(other);
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
