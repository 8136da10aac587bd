/**
 * Stop, after a confirmation in a modal dialog: the delegation ends as `stopped` and the server
 * settles its pending cards as denied. The answer (stopped, or had already finished) is told.
 */
import { useRef, useState } from 'react';
import { messageOf } from '../../api/client';
import { stopDelegation, type StopOutcome } from '../../api/delegations';

export function StopButton({
  delegationId,
  pendingCards,
  onStopped,
  stop: stopRun = stopDelegation,
  noun = 'delegation',
}: {
  delegationId: string;
  pendingCards: number;
  onStopped(message: string): void;
  /** A session's page stops through its own route (its tasks stop with it). */
  stop?: (id: string) => Promise<StopOutcome>;
  noun?: 'delegation' | 'session';
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const stop = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const outcome = await stopRun(delegationId);
      dialog.current?.close();
      onStopped(
        'stopped' in outcome
          ? 'Stopped. Its pending cards were denied.'
          : `It had already finished (${outcome.status}); nothing to stop.`,
      );
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className="danger"
        onClick={() => {
          dialog.current?.showModal();
          // The safe choice first: Enter or Space right away must not stop anything.
          cancel.current?.focus();
        }}
      >
        Stop
      </button>
      <dialog ref={dialog} aria-labelledby="stop-title" aria-describedby="stop-what">
        <h2 id="stop-title">
          Stop {noun} {delegationId}?
        </h2>
        <p id="stop-what">
          It ends as stopped with what it has done so far.
          {pendingCards > 0
            ? ` Its ${pendingCards === 1 ? 'pending card is' : `${pendingCards} pending cards are`} denied.`
            : ''}
        </p>
        {problem === null ? null : (
          <p role="alert" className="banner error">
            {problem}
          </p>
        )}
        <div className="toolbar">
          <button type="button" className="danger" disabled={busy} onClick={() => void stop()}>
            {busy ? 'Stopping…' : `Stop ${noun}`}
          </button>
          <button
            ref={cancel}
            type="button"
            disabled={busy}
            onClick={() => dialog.current?.close()}
          >
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
