/**
 * Session ids for a filter: the sessions the API lists (`GET /sessions`), plus `default` (where
 * a delegation started without a session belongs, with no session workflow of its own) and every
 * session the page has seen on its rows since it opened, so a session stays a choice after the
 * filter has hidden its rows.
 */
import { useEffect, useState } from 'react';
import { listSessions } from '../../api/delegations';

export function useSessionNames(seen: readonly string[], tokenGeneration: number): string[] {
  const [listed, setListed] = useState<string[]>([]);
  const [remembered, setRemembered] = useState<string[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    listSessions(controller.signal)
      .then((sessions) => setListed(sessions.map((session) => session.sessionId)))
      // The filter still works from the seen sessions; a page's own banner tells other failures.
      .catch(() => undefined);
    return () => controller.abort();
  }, [tokenGeneration]);
  // Remembered during render (React's pattern for state derived from earlier renders): the
  // condition stops once every seen session is in.
  const unseen = [...new Set(seen)].filter((name) => name !== '' && !remembered.includes(name));
  if (unseen.length > 0) setRemembered([...remembered, ...unseen]);
  return [...new Set(['default', ...listed, ...remembered, ...unseen])].sort();
}
