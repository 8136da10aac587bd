/**
 * Connection attempts nobody is waiting for (connecting ahead of use, retries) take turns: at
 * most `limit` run at once, so a workspace that names twenty stdio servers does not spawn twenty
 * processes in the same instant on a small machine. An attempt someone waits for (a call, a
 * delegation starting) does not queue: `now()` starts it at once, whatever is running. An
 * attempt holds its turn for `slotMs` at most: a server that never answers its handshake (the
 * SDK gives up on it after a minute) must not hold back every other server behind it.
 */

export interface QueuedAttempt {
  /** Starts the attempt now if it has not started; nothing if it has. */
  now(): void;
  /** Drops the attempt if it has not started. */
  cancel(): void;
}

export interface ConnectQueue {
  /** Queues `attempt`; it starts on a later turn of the event loop, never inside this call. */
  enqueue(attempt: () => Promise<void>): QueuedAttempt;
}

export function createConnectQueue(limit: number, slotMs = 10_000): ConnectQueue {
  const waiting: Array<{ run(): void }> = [];
  let running = 0;
  let pumpScheduled = false;

  const pump = (): void => {
    pumpScheduled = false;
    while (running < limit && waiting.length > 0) waiting.shift()!.run();
  };
  // On the next turn: whoever queues (a worker starting, a reload) is never held up by a spawn.
  const schedulePump = (): void => {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(pump);
  };

  return {
    enqueue(attempt) {
      let state: 'queued' | 'started' | 'cancelled' = 'queued';
      const entry = {
        run() {
          if (state !== 'queued') return;
          state = 'started';
          const index = waiting.indexOf(entry);
          if (index >= 0) waiting.splice(index, 1);
          running += 1;
          let held = true;
          const release = () => {
            if (!held) return;
            held = false;
            clearTimeout(timer);
            running -= 1;
            schedulePump();
          };
          const timer = setTimeout(release, slotMs);
          // Only a turn ends here: the process keeps no timer alive on its own.
          timer.unref();
          void attempt()
            .catch(() => undefined)
            .finally(release);
        },
      };
      waiting.push(entry);
      schedulePump();
      return {
        now: () => entry.run(),
        cancel() {
          if (state !== 'queued') return;
          state = 'cancelled';
          const index = waiting.indexOf(entry);
          if (index >= 0) waiting.splice(index, 1);
        },
      };
    },
  };
}
