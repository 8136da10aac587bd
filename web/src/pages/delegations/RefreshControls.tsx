/** A polled list's toolbar end: when it was last read, and a button to read it now. */
import { absoluteText } from '../inbox/time';
import type { Polled } from './use-polled';

export function RefreshControls({ list }: { list: Pick<Polled<unknown>, 'readAt' | 'refresh'> }) {
  return (
    <>
      {list.readAt === null ? null : (
        <span className="hint">Updated {absoluteText(new Date(list.readAt).toISOString())}</span>
      )}
      <button type="button" onClick={list.refresh}>
        Refresh
      </button>
    </>
  );
}
