/**
 * A modal question before something that cannot be taken back in one click (delete, restore).
 * The native <dialog> gives focus trapping, Escape and the backdrop for free; Escape or Cancel
 * call onCancel, and the answer's problem, if any, shows inside the dialog.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { messageOf } from '../../api/client';

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger = false,
  busy = false,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onCancel} className="confirm">
      <h2 id={titleId}>{title}</h2>
      {children}
      {error === undefined || error === null ? null : (
        <p role="alert" className="banner error">
          {messageOf(error)}
        </p>
      )}
      <div className="toolbar dialog-actions">
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className={danger ? 'danger' : 'primary'}
          onClick={onConfirm}
          disabled={busy}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
