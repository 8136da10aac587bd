/**
 * Which agents a main agent may hand work to. A session's definition may name the
 * delegation tools in `tools` (`Task`, `Agent`, `TaskOutput`, `TaskStop`, harmless: a session
 * always has them), narrow the agents with Claude Code's `Task(a, b)` / `Agent(a, b)`, or take
 * delegation away with `disallowedTools: [Task]`. A delegate reads none of this: its specs go
 * through tool-selection/spec-match.ts, which refuses them with a diagnostic (it never delegates).
 */
import type { DelegateTarget } from '../shared/tools/delegation-tools.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { splitPatternSpec } from './tool-selection/spec-match.js';

const BARE_SPECS = new Set(['task', 'agent', 'taskoutput', 'taskstop']);
const PATTERN_TOOLS = new Set(['task', 'agent']);

export interface DelegationSpecs {
  /** True when `spec` is a delegation spec (then it is consumed here, not matched as a tool). */
  consume(spec: string, path: string, list: 'tools' | 'disallowed'): boolean;
  /**
   * The agents the main agent may start: every agent but itself, narrowed by `Task(...)`
   * patterns; null when `disallowedTools` took delegation away. Names a pattern lists that
   * no agent has are reported, never silently dropped.
   */
  targets(
    agents: readonly DelegateTarget[],
    self: string,
    diagnostics: Diagnostic[],
  ): DelegateTarget[] | null;
}

export function delegationSpecs(): DelegationSpecs {
  let disallowed = false;
  // Agent names from every `Task(...)` pattern, with where each was written; null = no pattern.
  let allowed: Array<{ name: string; path: string }> | null = null;
  return {
    consume(spec, path, list) {
      const trimmed = spec.trim();
      const patterned = splitPatternSpec(trimmed);
      const isBare = BARE_SPECS.has(trimmed.toLowerCase());
      const isPattern = patterned !== null && PATTERN_TOOLS.has(patterned.tool.toLowerCase());
      if (!isBare && !isPattern) return false;
      if (list === 'disallowed') disallowed = true;
      else if (isPattern) {
        const names = patterned.argument
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
        allowed = [...(allowed ?? []), ...names.map((name) => ({ name, path }))];
      }
      return true;
    },
    targets(agents, self, diagnostics) {
      if (disallowed) {
        diagnostics.push({
          severity: 'info',
          path: 'disallowedTools',
          code: 'task.disallowed',
          message: 'disallowedTools takes Task away: this main agent cannot delegate',
        });
        return null;
      }
      const others = agents.filter((agent) => agent.name !== self);
      if (allowed === null) return others;
      const byName = new Map(others.map((agent) => [agent.name, agent]));
      const chosen: DelegateTarget[] = [];
      for (const { name, path } of allowed) {
        const target = byName.get(name);
        if (target === undefined) {
          diagnostics.push({
            severity: 'warning',
            path,
            code: 'task.unknown-agent',
            message:
              name === self
                ? `'${name}' is this agent itself: a main agent does not delegate to itself`
                : `no agent named '${name}' to delegate to (agents: ${[...byName.keys()].join(', ') || 'none'})`,
          });
        } else if (!chosen.includes(target)) chosen.push(target);
      }
      return chosen;
    },
  };
}
