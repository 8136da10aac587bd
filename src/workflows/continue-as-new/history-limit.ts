/** When a workflow should hand over to a fresh run. Sandbox code. */
import { workflowInfo } from '@temporalio/workflow';
import { HISTORY_BYTES_LIMIT, HISTORY_EVENTS_LIMIT } from './carried-state.js';

export function historyNearLimit(): boolean {
  const info = workflowInfo();
  return (
    info.continueAsNewSuggested ||
    info.historyLength > HISTORY_EVENTS_LIMIT ||
    info.historySize > HISTORY_BYTES_LIMIT
  );
}
