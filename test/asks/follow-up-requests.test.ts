/**
 * The follow-ups every door builds the same way: a configured secret typed into a message or a
 * resume never reaches the facade, and a fork or resume carries only the options it was given.
 */
import { describe, expect, it } from 'vitest';
import { DecideCardBodySchema } from '../../src/asks/decision-body.js';
import { forkRequest, messageRequest, resumeRequest } from '../../src/asks/follow-up-requests.js';
import { createSecretMasker } from '../../src/secrets/masker.js';
import { ANONYMOUS_CALLER, type Caller } from '../../src/shared/caller.js';

const SECRET = 'sk-live-0123456789abcdef';
const masker = createSecretMasker([SECRET]);
const alice: Caller = { id: 'alice', roles: [] };

describe('follow-up requests', () => {
  it('masks a configured secret in a message, keeping who sent it and its id', () => {
    const request = messageRequest(
      { text: `use ${SECRET} now`, from: 'alice', messageId: 'm-1' },
      masker,
    );
    expect(request.text).not.toContain(SECRET);
    expect(request).toMatchObject({ from: 'alice', messageId: 'm-1' });
    expect(messageRequest({ text: 'hello', from: null }, masker)).toEqual({
      text: 'hello',
      from: null,
    });
  });

  it('masks a resume’s message and carries only the options that were given', () => {
    const request = resumeRequest(
      { text: `go on with ${SECRET}`, caller: alice, model: 'small', agent: undefined },
      masker,
    );
    expect(request.text).not.toContain(SECRET);
    expect(request).toEqual({ text: request.text, caller: alice, model: 'small' });
  });

  it('builds a fork from its round, its caller and what it changes', () => {
    expect(
      forkRequest({ fromRound: 2, caller: ANONYMOUS_CALLER, session: 's-1', delegationId: 'd-9' }),
    ).toEqual({ fromRound: 2, caller: ANONYMOUS_CALLER, session: 's-1', delegationId: 'd-9' });
  });
});

describe('the decision body', () => {
  it('refuses a combination no door may send, as the API answers it', () => {
    const parsed = DecideCardBodySchema.safeParse({ decision: 'deny', answer: 'x' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("answer goes with decision 'answer', not 'deny'");
    expect(DecideCardBodySchema.safeParse({ decision: 'approve', allow: 'session' }).success).toBe(
      true,
    );
  });
});
