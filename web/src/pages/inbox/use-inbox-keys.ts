/**
 * The inbox's keys: j / k move the selection, a approves the selected card, d takes the caret to
 * its reason field (Enter there denies). Keys typed into a field, or with a modifier, are the
 * field's and the browser's, never ours.
 */
import { useEffect, useEffectEvent } from 'react';

export interface InboxKeyActions {
  move(step: 1 | -1): void;
  approve(): void;
  deny(): void;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

export function useInboxKeys(actions: InboxKeyActions): void {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (isTyping(event.target)) return;
    // An open dialog owns the keyboard.
    if (document.querySelector('dialog[open]') !== null) return;
    const action =
      event.key === 'j'
        ? () => actions.move(1)
        : event.key === 'k'
          ? () => actions.move(-1)
          : event.key === 'a'
            ? actions.approve
            : event.key === 'd'
              ? actions.deny
              : null;
    if (action === null) return;
    // Also keeps the `d` from landing in the reason field it focuses.
    event.preventDefault();
    action();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
