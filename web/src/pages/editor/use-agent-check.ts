/**
 * The live check: `POST /workspace/agents/check` about 300 ms after the last change, the one
 * before it aborted, so what is shown is always the answer about what is on screen (or the last
 * one, while the next is on its way). `now()` skips the wait, for a save that must know.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { checkAgent, type AgentCheck, type CheckInput, type WritableLevel } from '../../api/editor';
import { messageOf } from '../../api/client';

export const CHECK_DELAY_MS = 300;

export interface CheckRequest {
  input: CheckInput;
  level: WritableLevel;
}

export interface Checked {
  /** The request it answers, as JSON: compare it with the current one to know it is current. */
  key: string;
  request: CheckRequest;
  answer: AgentCheck;
}

export interface CheckState {
  latest: Checked | null;
  /** True while the answer about the current request has not come yet. */
  pending: boolean;
  problem: string | null;
  /** The answer about `request` now (the one already had, or a fresh one). */
  now(): Promise<Checked>;
}

const keyOf = (request: CheckRequest): string => JSON.stringify(request);

/** `onAnswer` hears every answer that is still current when it arrives (not an aborted one). */
export function useAgentCheck(
  request: CheckRequest | null,
  onAnswer?: (checked: Checked) => void,
): CheckState {
  const [latest, setLatest] = useState<Checked | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // The request being asked about: a second ask about the same content (the debounce firing
  // while a save's `now()` waits) joins it instead of aborting it, which told a person who
  // pressed Save right after an edit to "save again".
  const inFlight = useRef<{
    key: string;
    controller: AbortController;
    answer: Promise<Checked>;
  } | null>(null);
  const latestRef = useRef<Checked | null>(null);
  const onAnswerRef = useRef(onAnswer);
  useEffect(() => {
    onAnswerRef.current = onAnswer;
  });
  const key = request === null ? null : keyOf(request);

  const run = useCallback((current: CheckRequest): Promise<Checked> => {
    const currentKey = keyOf(current);
    if (inFlight.current?.key === currentKey) return inFlight.current.answer;
    inFlight.current?.controller.abort();
    const controller = new AbortController();
    const answer = checkAgent(current.input, current.level, controller.signal).then((body) => {
      const checked = { key: currentKey, request: current, answer: body };
      if (!controller.signal.aborted) {
        latestRef.current = checked;
        setLatest(checked);
        setProblem(null);
        onAnswerRef.current?.(checked);
      }
      return checked;
    });
    const entry = { key: currentKey, controller, answer };
    inFlight.current = entry;
    const clear = () => {
      if (inFlight.current === entry) inFlight.current = null;
    };
    answer.then(clear, clear);
    return answer;
  }, []);

  useEffect(() => {
    if (request === null || key === null) return;
    if (latestRef.current?.key === key) return;
    const timer = setTimeout(() => {
      run(request).catch((error: unknown) => {
        if ((error as Error).name !== 'AbortError') setProblem(messageOf(error));
      });
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
    // `key` stands for `request`: a new object with the same content is the same request.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, run]);

  useEffect(() => () => inFlight.current?.controller.abort(), []);

  const requestRef = useRef(request);
  useEffect(() => {
    requestRef.current = request;
  });
  const now = useCallback(async (): Promise<Checked> => {
    const current = requestRef.current;
    if (current === null) throw new Error('nothing to check yet');
    if (latestRef.current?.key === keyOf(current)) return latestRef.current;
    return run(current);
  }, [run]);

  return { latest, pending: key !== null && latest?.key !== key, problem, now };
}
