import type { CapabilitySnapshot } from '../shared/capability-snapshot.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';

/** What a running tool may use. Everything path-like is already rooted; nothing else is reachable. */
export interface ToolContext {
  /** Real (symlink-resolved) absolute workspace root. */
  workspaceRoot: string;
  snapshot: CapabilitySnapshot;
  /** Aborted when the delegation is stopped; long tools must honour it. */
  signal: AbortSignal;
  /** Long tools call this periodically so cancellation reaches them. */
  heartbeat: (details?: unknown) => void;
}

/**
 * A tool's implementation. `run` returns the text the model sees; throwing a `ToolError` (or
 * anything) becomes `[tool 'NAME' failed] CAUSE` for the model, never an exception in the loop.
 */
export interface ToolImplementation {
  schema: ToolSchema;
  run(args: Record<string, unknown>, context: ToolContext): Promise<string>;
}

/** A failure whose message is meant for the model as it is. */
export class ToolError extends Error {
  override readonly name = 'ToolError';

  /**
   * @param tool the name the failure is reported under, when it is not the called tool's own
   *   (`mcp_call` reports `server/tool`).
   */
  constructor(
    message: string,
    readonly tool?: string,
  ) {
    super(message);
  }
}
