/**
 * A signal sent so that a late answer neither loses it nor stores it twice. A loaded server may
 * store a signal after its answer missed the bound (rpc.ts); sent again blindly, a session's
 * message would reach the model twice. So a signal with no answer in time is looked for in the
 * run's history by the id its argument carries, and sent once more only if it is not there.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import { rpc, worthAskingAgain } from './rpc.js';
import { signalArgsInHistory } from './signal-history.js';

export async function signalOnce<T>(
  handle: WorkflowHandle,
  runId: string,
  signal: SignalDefinition<[T]>,
  arg: T,
  isThisOne: (stored: unknown) => boolean,
): Promise<void> {
  const send = () => rpc(handle.client, () => handle.signal(signal, arg));
  try {
    await send();
  } catch (error) {
    if (!worthAskingAgain(handle.client, error)) throw error;
    const stored = await signalArgsInHistory(handle, runId, signal.name, { unappliedOnly: false });
    if (stored.some(isThisOne)) return;
    await send();
  }
}
