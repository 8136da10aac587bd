/**
 * A value read from the API now and every `intervalMs` after (lists that have no stream), with
 * a `refresh()` for a button. A failed read keeps the last good value and reports the error.
 */
import { useCallback, useEffect, useState } from 'react';

export interface Polled<T> {
  value: T | null;
  error: unknown;
  /** When the value was last read (ms since the epoch), null before the first read. */
  readAt: number | null;
  refresh(): void;
}

export function usePolled<T>(
  read: (signal: AbortSignal) => Promise<T>,
  /** Re-read from the start when this changes (a filter, a token). */
  key: string,
  intervalMs: number,
  /** Re-read now when this changes, keeping the value shown meanwhile (a new event). */
  version: unknown = 0,
): Polled<T> {
  const [state, setState] = useState<{
    key: string;
    value: T | null;
    error: unknown;
    readAt: number | null;
  }>({ key, value: null, error: null, readAt: null });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    read(controller.signal)
      .then((value) => setState({ key, value, error: null, readAt: Date.now() }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState((current) => ({ ...current, key, error }));
      });
    const timer = setTimeout(() => setTick((n) => n + 1), intervalMs);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // `read` is rebuilt on each render; `key` says when what it reads changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, tick, intervalMs, version]);
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  const current = state.key === key ? state : { value: null, error: null, readAt: null };
  return { value: current.value, error: current.error, readAt: current.readAt, refresh };
}
