/** The door's ceiling (src/policy/mode-ceiling.ts): of two caller modes, the stricter one. */
import { describe, expect, it } from 'vitest';
import { stricterMode } from '../../src/policy/mode-ceiling.js';
import { PERMISSION_MODES } from '../../src/shared/policy-contract.js';

describe('stricterMode', () => {
  it('keeps the only one stated, and none when neither is', () => {
    expect(stricterMode(undefined, undefined)).toBeUndefined();
    expect(stricterMode('plan', undefined)).toBe('plan');
    expect(stricterMode(undefined, 'acceptEdits')).toBe('acceptEdits');
  });

  it.each([
    ['plan', 'bypassPermissions', 'plan'],
    ['acceptEdits', 'default', 'default'],
    ['dontAsk', 'default', 'dontAsk'],
    ['plan', 'dontAsk', 'dontAsk'],
    ['plan', 'acceptEdits', 'plan'],
    ['bypassPermissions', 'acceptEdits', 'acceptEdits'],
  ] as const)('%s and %s: %s, whichever side states it', (a, b, stricter) => {
    expect(stricterMode(a, b)).toBe(stricter);
    expect(stricterMode(b, a)).toBe(stricter);
  });

  it('places every mode the contract knows between bypassPermissions and dontAsk', () => {
    for (const mode of PERMISSION_MODES) {
      expect(stricterMode(mode, mode)).toBe(mode);
      expect(stricterMode(mode, 'dontAsk')).toBe('dontAsk');
      expect(stricterMode(mode, 'bypassPermissions')).toBe(mode);
    }
  });
});
