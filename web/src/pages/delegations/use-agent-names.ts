/**
 * The names of the agents the caller may see, read once per token (the start form, the
 * delegation filter and the schedule form offer them); empty until read or when the read fails,
 * which those forms survive (the filter still offers the agents on its rows).
 */
import { useEffect, useState } from 'react';
import { listAgentNames } from '../../api/delegations';

export function useAgentNames(tokenGeneration: number): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    listAgentNames(controller.signal)
      .then(setNames)
      .catch(() => undefined);
    return () => controller.abort();
  }, [tokenGeneration]);
  return names;
}
