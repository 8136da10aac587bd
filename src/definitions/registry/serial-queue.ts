/**
 * Runs async operations one at a time, in call order, so two saves never interleave their
 * read-modify-write. A failed operation rejects its own caller only; the next one still runs.
 */
export type Serialized = <T>(operation: () => Promise<T>) => Promise<T>;

export function createSerialQueue(): Serialized {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(operation: () => Promise<T>): Promise<T> => {
    const run = queue.then(operation, operation);
    queue = run.catch(() => undefined);
    return run;
  };
}
