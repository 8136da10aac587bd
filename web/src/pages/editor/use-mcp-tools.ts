/**
 * One MCP server's live tool list for the picker. A server that is still connecting answers
 * with its status and no tools, so it is asked again each second (the MCP manager's polling)
 * until it is connected or failed, or 30 s have passed.
 */
import { useEffect, useState } from 'react';
import { messageOf } from '../../api/client';
import { listMcpTools, type McpServerTools } from '../../api/editor';
import type { Loaded } from './use-catalogs';

const POLL_MS = 1000;
const MAX_POLLS = 30;

/** Tools seen so far, by server: the tool rows show their descriptions from here. */
export const seenMcpTools = new Map<string, McpServerTools['tools']>();

export function useMcpTools(server: string | null, attempt: number): Loaded<McpServerTools> | null {
  const [loaded, setLoaded] = useState<{ server: string; value: Loaded<McpServerTools> } | null>(
    null,
  );

  useEffect(() => {
    if (server === null) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = (polls: number): void => {
      listMcpTools(server, controller.signal)
        .then((answer) => {
          if (answer.status === 'connected') seenMcpTools.set(server, answer.tools);
          setLoaded({ server, value: { state: 'ready', value: answer } });
          if (answer.status === 'connecting' && polls < MAX_POLLS) {
            timer = setTimeout(() => ask(polls + 1), POLL_MS);
          }
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setLoaded({ server, value: { state: 'failed', problem: messageOf(error) } });
        });
    };
    ask(0);
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [server, attempt]);

  if (server === null) return null;
  return loaded?.server === server ? loaded.value : { state: 'loading' };
}
