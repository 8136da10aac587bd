/**
 * An agent's diagnostic counts in words ("1 error, 2 warnings"), so the text itself is what a
 * screen reader says; coloured as a warning (or an error) when any needs attention.
 */
import type { AgentSummary } from '../../api/agents';

export function diagnosticWords(count: AgentSummary['diagnosticCount']): string {
  const parts: string[] = [];
  if (count.error > 0) parts.push(plural(count.error, 'error'));
  if (count.warning > 0) parts.push(plural(count.warning, 'warning'));
  if (count.info > 0) parts.push(plural(count.info, 'note'));
  return parts.length === 0 ? 'no diagnostics' : parts.join(', ');
}

export function DiagnosticCount({ count }: { count: AgentSummary['diagnosticCount'] }) {
  if (count.total === 0) return <span className="muted">none</span>;
  const tone = count.error > 0 ? 'error' : count.warning > 0 ? 'warning' : '';
  return <span className={`chip ${tone}`.trim()}>{diagnosticWords(count)}</span>;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
