import { describe, expect, it } from 'vitest';
import { createSerialQueue } from '../../src/definitions/registry/serial-queue.js';

describe('createSerialQueue (authoring runs one save at a time)', () => {
  it('starts each operation only after the previous one settled, in call order', async () => {
    const serialized = createSerialQueue();
    const events: string[] = [];
    const step = (name: string, ms: number) => () =>
      new Promise<string>((resolve) => {
        events.push(`start ${name}`);
        setTimeout(() => {
          events.push(`end ${name}`);
          resolve(name);
        }, ms);
      });
    const results = await Promise.all([
      serialized(step('a', 30)),
      serialized(step('b', 1)),
      serialized(step('c', 10)),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it("rejects only the failed operation's caller; the next operation still runs", async () => {
    const serialized = createSerialQueue();
    const failed = serialized(() => Promise.reject(new Error('disk full')));
    const next = serialized(() => Promise.resolve('saved'));
    await expect(failed).rejects.toThrow('disk full');
    await expect(next).resolves.toBe('saved');
  });
});
