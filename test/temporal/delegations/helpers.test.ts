import { describe, expect, it } from 'vitest';
import { isValidId, newDelegationId, quote } from '../../../src/temporal/delegations/ids.js';
import { effectiveStatus } from '../../../src/temporal/delegations/status.js';

describe('delegation ids', () => {
  it('generates d- plus 12 base36 characters, valid as ids', () => {
    const ids = new Set(Array.from({ length: 200 }, newDelegationId));
    expect(ids.size).toBe(200);
    for (const id of ids) {
      expect(id).toMatch(/^d-[0-9a-z]{12}$/);
      expect(isValidId(id)).toBe(true);
    }
  });

  it('rejects ids outside the alphabet', () => {
    for (const bad of ['', '-x', "a'b", 'a b', 'a/b', 'x'.repeat(65)])
      expect(isValidId(bad)).toBe(false);
  });

  it('quotes visibility literals', () => {
    expect(quote("it's")).toBe("'it\\'s'");
    expect(quote('a\\b')).toBe("'a\\\\b'");
  });
});

describe('effectiveStatus', () => {
  it('trusts the workflow while it runs and the execution status after', () => {
    expect(effectiveStatus('RUNNING', 'parked')).toBe('parked');
    expect(effectiveStatus('RUNNING', undefined)).toBe('running');
    expect(effectiveStatus('COMPLETED', 'completed')).toBe('completed');
    expect(effectiveStatus('COMPLETED', 'stopped')).toBe('stopped');
    expect(effectiveStatus('COMPLETED', 'running')).toBe('completed');
    expect(effectiveStatus('TERMINATED', 'parked')).toBe('stopped');
    expect(effectiveStatus('CANCELLED', 'running')).toBe('stopped');
    expect(effectiveStatus('FAILED', 'running')).toBe('failed');
    expect(effectiveStatus('TIMED_OUT', 'running')).toBe('failed');
  });
});
