import { describe, expect, it } from 'vitest';
import { MAX_TASK_BYTES } from '../../src/shared/task-limit.js';
import { steeringTextProblem } from '../../src/shared/steering.js';

describe('steeringTextProblem', () => {
  it('refuses a blank message', () => {
    expect(steeringTextProblem('')).toBe('the message is empty');
    expect(steeringTextProblem(' \n\t ')).toBe('the message is empty');
  });

  it('counts UTF-8 bytes as the API does, up to the task limit', () => {
    expect(steeringTextProblem('a'.repeat(MAX_TASK_BYTES))).toBeNull();
    expect(steeringTextProblem('a'.repeat(MAX_TASK_BYTES + 1))).toMatch(/65537 bytes/);
    // Every character's own width: 1, 2, 3 and 4 bytes, as Buffer.byteLength counts them.
    for (const character of ['a', 'é', '€', '😀']) {
      const width = Buffer.byteLength(character, 'utf8');
      const fits = character.repeat(Math.floor(MAX_TASK_BYTES / width));
      expect(steeringTextProblem(fits), character).toBeNull();
      expect(steeringTextProblem(`${fits}${character}`), character).toMatch(/at most 65536/);
    }
  });
});
