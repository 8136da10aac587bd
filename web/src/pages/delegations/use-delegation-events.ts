/**
 * A delegation's events, live: `GET /delegations/:id/events` replays from the first event and
 * follows until `finished` (the server then ends the stream, and it is not reopened). A dropped
 * stream is reopened with Last-Event-ID, so an event is never shown twice; cards replayed on
 * attach (seq 0) are kept once per card.
 */
import { useEffect, useReducer } from 'react';
import { delegationEventsPath } from '../../api/delegations';
import { followStream } from '../../api/sse';
import type { DelegationEvent } from '../../api/types';

/** `forbidden`: the API refuses this caller its events (not its owner nor an admin). */
export type StreamState = 'connecting' | 'live' | 'down' | 'finished' | 'forbidden';

export interface EventsState {
  key: string;
  events: DelegationEvent[];
  stream: StreamState;
  problem: string | null;
}

type Action =
  | { key: string; type: 'event'; event: DelegationEvent }
  | { key: string; type: 'connection'; open: boolean; problem?: string }
  | { key: string; type: 'stream-error'; message: string }
  | { key: string; type: 'forbidden'; message: string };

const initial = (key: string): EventsState => ({
  key,
  events: [],
  stream: 'connecting',
  problem: null,
});

function seen(events: DelegationEvent[], event: DelegationEvent): boolean {
  if (event.type === 'card-opened') {
    return events.some((e) => e.type === 'card-opened' && e.card.id === event.card.id);
  }
  return events.some((e) => e.seq === event.seq && e.type === event.type);
}

function reducer(previous: EventsState, action: Action): EventsState {
  const state = previous.key === action.key ? previous : initial(action.key);
  switch (action.type) {
    case 'event': {
      if (seen(state.events, action.event)) return state;
      const events = [...state.events, action.event];
      // A replayed card (seq 0) sorts by when it opened, among the others.
      events.sort((a, b) =>
        a.seq === 0 || b.seq === 0 ? a.at.localeCompare(b.at) : a.seq - b.seq,
      );
      const finished = action.event.type === 'finished';
      return { ...state, events, stream: finished ? 'finished' : state.stream };
    }
    case 'connection':
      if (state.stream === 'finished' || state.stream === 'forbidden') return state;
      return {
        ...state,
        stream: action.open ? 'live' : 'down',
        problem: action.open ? null : (action.problem ?? null),
      };
    case 'stream-error':
      return { ...state, problem: action.message };
    case 'forbidden':
      return { ...state, stream: 'forbidden', problem: action.message };
  }
}

export function useDelegationEvents(
  delegationId: string,
  tokenGeneration: number,
  /** Another stream of the same shape: a session's (`/sessions/:id/events`). */
  path: string = delegationEventsPath(delegationId),
): EventsState {
  const key = `${tokenGeneration}/${path}`;
  const [stored, dispatch] = useReducer(reducer, key, initial);
  useEffect(() => {
    const controller = new AbortController();
    followStream(
      path,
      {
        onEvent({ type, data }) {
          if (type === 'error') {
            dispatch({
              key,
              type: 'stream-error',
              message: 'the server could not read the events',
            });
            return;
          }
          if (data !== null && typeof data === 'object' && 'type' in data) {
            dispatch({ key, type: 'event', event: data as DelegationEvent });
          }
        },
        onRefused(status, message) {
          if (status === 403) dispatch({ key, type: 'forbidden', message });
        },
        onConnection(open, problem) {
          dispatch({
            key,
            type: 'connection',
            open,
            ...(problem === undefined ? {} : { problem }),
          });
        },
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [path, key]);
  return stored.key === key ? stored : initial(key);
}
