/**
 * Counts what only the workflow knows, through the worker's `deputyMetrics` sink
 * (src/shared/workflow-contract/workflow-metrics.ts): no command, so no patch, and not called on replay. Labels are
 * bounded here, where the agent's tools are known: any other name is counted as `unknown`.
 * Sandbox code.
 */
import { proxySinks } from '@temporalio/workflow';
import type { ResolvedAgent } from '../shared/workflow-contract/activities.js';
import {
  UNKNOWN_TOOL,
  type WorkflowMetricSinks,
} from '../shared/workflow-contract/workflow-metrics.js';
import type { PlannedCall } from './tool-calls.js';

const { deputyMetrics } = proxySinks<WorkflowMetricSinks>();

/**
 * Policy's final verdict (after PreToolUse hooks) on each planned call. A call whose arguments
 * could not be read met no policy and is not counted.
 */
export function countVerdicts(planned: readonly PlannedCall[], resolved: ResolvedAgent): void {
  for (const item of planned) {
    if (item.invalid !== undefined) continue;
    deputyMetrics.toolVerdict(toolLabel(item.call.name, resolved), item.verdict.kind);
  }
}

export function countCardOpened(item: PlannedCall, resolved: ResolvedAgent): void {
  deputyMetrics.cardOpened(toolLabel(item.call.name, resolved));
}

function toolLabel(name: string, resolved: ResolvedAgent): string {
  return resolved.snapshot.tools.some((tool) => tool.name === name) ? name : UNKNOWN_TOOL;
}
