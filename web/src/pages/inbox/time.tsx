/**
 * Times as people read them ("opened 2 min ago") with the exact instant in the element, so a
 * screen reader or a hover gives the absolute time. One clock per page, ticking slowly: ages
 * are minutes, not seconds.
 */
import { useEffect, useState } from 'react';

/** The current time, re-read every `intervalMs` (default 15 s) so relative times move on. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** `5 s`, `2 min`, `3 h`, `4 d`: the largest unit that fits. */
export function spanText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** `2 min ago` for a past instant, `in 5 min` for a future one. */
export function relativeText(iso: string, now: number): string {
  const delta = Date.parse(iso) - now;
  if (Number.isNaN(delta)) return iso;
  if (Math.abs(delta) < 5000) return 'just now';
  return delta < 0 ? `${spanText(-delta)} ago` : `in ${spanText(delta)}`;
}

export function absoluteText(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A `<time>` showing `prefix` + the relative time, the absolute one in its title. */
export function RelativeTime({
  iso,
  now,
  prefix = '',
}: {
  iso: string;
  now: number;
  prefix?: string;
}) {
  // `now` ticks every 15 s to move ages on; a time first drawn between ticks (a card that just
  // arrived) is measured from when it appeared, or it would read "opened in 6 s".
  const [shownAt] = useState(() => Date.now());
  return (
    <time dateTime={iso} title={absoluteText(iso)}>
      {prefix}
      {relativeText(iso, Math.max(now, shownAt))}
    </time>
  );
}

/** A `<time>` showing the absolute time (tables, headers). */
export function AbsoluteTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{absoluteText(iso)}</time>;
}
