/**
 * The turn limit, which three fields can set: maxTurns, maxToolRounds and qwen-code's legacy
 * runConfig.max_turns. Each is read on its own; resolveTurns picks one and reports disagreement.
 */
import type { AgentDefinition } from '../definition.js';
import { RUN_CONFIG_TURNS_KEY } from '../ecosystem.js';
import { isMapping, mustBe, report, type ReadContext } from './context.js';
import { readPositiveInteger } from './scalars.js';

/** A turn limit as one field declared it; `path` names the field. */
export interface TurnsCandidate {
  path: string;
  value: number;
}

export const RUN_CONFIG_TURNS_PATH = `runConfig.${RUN_CONFIG_TURNS_KEY}`;

/** The runConfig.max_turns value, if readable; other runConfig keys are reported, not read. */
export function readRunConfig(value: unknown, ctx: ReadContext): number | undefined {
  if (!isMapping(value)) {
    mustBe(ctx, 'runConfig', 'a mapping', value, 'ignored');
    return undefined;
  }
  const others = Object.keys(value).filter((key) => key !== RUN_CONFIG_TURNS_KEY);
  if (others.length > 0) {
    report(
      ctx,
      'warning',
      'runConfig',
      'field.unsupported',
      `runConfig.${others.join(', runConfig.')} ${others.length === 1 ? 'is' : 'are'} not supported (only ${RUN_CONFIG_TURNS_PATH} is read); kept in the file unchanged`,
    );
  }
  const turns = value[RUN_CONFIG_TURNS_KEY];
  if (turns === undefined || turns === null) return undefined;
  return readPositiveInteger(RUN_CONFIG_TURNS_PATH, turns, ctx);
}

/** maxTurns wins over maxToolRounds, which wins over legacy runConfig.max_turns. */
export function resolveTurns(
  turns: TurnsCandidate[],
  definition: AgentDefinition,
  ctx: ReadContext,
): void {
  const order = ['maxTurns', 'maxToolRounds', RUN_CONFIG_TURNS_PATH];
  turns.sort((a, b) => order.indexOf(a.path) - order.indexOf(b.path));
  const winner = turns[0];
  if (winner === undefined) return;
  definition.maxTurns = winner.value;
  for (const other of turns.slice(1)) {
    if (other.value !== winner.value) {
      report(
        ctx,
        'warning',
        other.path,
        'maxTurns.conflict',
        `${other.path} (${other.value}) disagrees with ${winner.path} (${winner.value}); ${winner.path} is used`,
      );
    }
  }
}
