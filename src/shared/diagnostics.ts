/**
 * A diagnostic says what in a definition or its resolution did not take effect, and why.
 * Tolerant loading turns every problem into one of these instead of failing.
 */
export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  severity: DiagnosticSeverity;
  /** Field path in the definition, e.g. `tools[2]` or `mcpServers[0].endpoint`. */
  path: string;
  /** Stable machine-readable code, e.g. `tool.unknown`, `tool.hidden-by-role`. */
  code: string;
  message: string;
}
