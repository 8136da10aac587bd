/**
 * Session ids for a filter: the sessions the API lists (`GET /sessions`), plus `default` (where
 * a delegation started without a session belongs, with no session workflow of its own) and any
 * the page has seen on its rows, so no shown card's session is missing from the choice.
 */
import { useEffect, useMemo, useState } from 'react';
import { listSessions } from '../../api/delegations';

export function useSessionNames(seen: readonly string[], tokenGeneration: number): string[] {
  const [listed, setListed] = useState<string[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    listSessions(controller.signal)
      .then((sessions) => setListed(sessions.map((session) => session.sessionId)))
      // The filter still works from the seen sessions; a page's own banner tells other failures.
      .catch(() => undefined);
    return () => controller.abort();
  }, [tokenGeneration]);
  const seenKey = seen.join('\n');
  return useMemo(
    () =>
      [...new Set(['default', ...listed, ...seenKey.split('\n')])]
        .filter((name) => name !== '')
        .sort(),
    [listed, seenKey],
  );
}
