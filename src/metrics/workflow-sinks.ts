/**
 * The worker's end of the workflows' `deputyMetrics` sink (src/shared/workflow-contract/workflow-metrics.ts), given
 * to the workflow worker's `Worker.create({ sinks })`. `callDuringReplay` stays false: a workflow
 * replayed after a restart or a cache eviction, or by a replay worker, re-runs code that already
 * counted. What crosses from the sandbox is checked: an unexpected verdict is dropped, not a label.
 */
import type { InjectedSinks } from '@temporalio/worker';
import {
  TOOL_VERDICTS,
  type ToolVerdict,
  type WorkflowMetricSinks,
} from '../shared/workflow-contract/workflow-metrics.js';
import { deputyMetrics } from './deputy-metrics.js';

/** A tool name is at most this long as a label; the workflow already maps unknown ones. */
const MAX_TOOL_LABEL = 120;

export const workflowMetricSinks: InjectedSinks<WorkflowMetricSinks> = {
  deputyMetrics: {
    toolVerdict: {
      fn: (_info, tool, verdict) => {
        if (!isVerdict(verdict)) return;
        deputyMetrics.toolVerdict(label(tool), verdict);
      },
      callDuringReplay: false,
    },
    cardOpened: {
      fn: (_info, tool) => deputyMetrics.cardOpened(label(tool)),
      callDuringReplay: false,
    },
  },
};

function isVerdict(value: unknown): value is ToolVerdict {
  return (TOOL_VERDICTS as readonly unknown[]).includes(value);
}

function label(tool: unknown): string {
  return typeof tool === 'string' ? tool.slice(0, MAX_TOOL_LABEL) : 'unknown';
}
