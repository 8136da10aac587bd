/**
 * The metrics only a workflow knows (policy's verdict on each tool call, cards opened), as a
 * Temporal sink: the workflow calls it (src/workflows/metric-sink.ts), the worker counts it in
 * Node (src/metrics/workflow-sinks.ts). A sink call is no command and leaves no history, and the
 * worker skips it while replaying, so a recovered or replayed workflow does not count twice.
 */
import type { Sinks } from '@temporalio/workflow';

/** Policy's verdicts, the only values the `verdict` label takes. */
export const TOOL_VERDICTS = ['allow', 'ask', 'deny'] as const;
export type ToolVerdict = (typeof TOOL_VERDICTS)[number];

/** What a tool name the agent was not given is counted as (the label stays bounded). */
export const UNKNOWN_TOOL = 'unknown';

export interface WorkflowMetricSinks extends Sinks {
  deputyMetrics: {
    /** `tool`: a tool the agent was given, else UNKNOWN_TOOL. */
    toolVerdict(tool: string, verdict: ToolVerdict): void;
    cardOpened(tool: string): void;
  };
}
