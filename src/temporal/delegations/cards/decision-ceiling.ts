/**
 * A ceiling caps decisions as it caps runs. A door serving under a permission mode (`deputy mcp
 * serve --mode plan`) may decide any card, including cards of runs started elsewhere, but never
 * beyond that mode: what the mode would deny outright it may not approve, answer in the tool's
 * place, or grant for the rest. Denying is always within: it never widens anything.
 *
 * - `dontAsk` (noHuman): no card is ever put to a person, so nothing is approved or answered.
 * - `plan` (readOnly): only cards of reads and MCP calls (the classes plan still asks about) may
 *   be approved, answered or granted; writes, bash, configuration and a tool of unknown class
 *   may only be denied.
 * - `default`, `acceptEdits`, `bypassPermissions`: their flags deny nothing a card asks about,
 *   so every decision is within them.
 *
 * Read from the same table as the run's own ceiling (permission-mode.ts), so the two agree.
 */
import { PERMISSION_MODE_EFFECTS } from '../../../policy/permission-mode.js';
import { DeputyError } from '../../../errors.js';
import { toolClassOf } from '../../../capabilities/providers.js';
import type { ApprovalCard } from '../../../shared/delegation.js';
import type { PermissionMode } from '../../../shared/policy-contract.js';
import type { ToolClass } from '../../../shared/tools/tool-contract.js';
import type { DecideRequest } from '../types.js';

/** The classes plan mode still asks about, as decide() lets them through its read-only check. */
const READ_ONLY_CLASSES: ReadonlySet<ToolClass> = new Set(['read', 'mcp']);

/** MCP tools reached directly are named `mcp__<server>__<tool>` (not in the catalog). */
function cardToolClass(tool: string): ToolClass | null {
  return toolClassOf(tool) ?? (tool.startsWith('mcp__') ? 'mcp' : null);
}

/** The refusal of `decision` on `card` under `ceiling`, or null when it is within it. */
export function ceilingRefusal(
  ceiling: PermissionMode | undefined,
  card: Pick<ApprovalCard, 'id' | 'tool'>,
  decision: Pick<DecideRequest, 'decision' | 'allow'>,
): DeputyError | null {
  if (ceiling === undefined || decision.decision === 'deny') return null;
  const effect = PERMISSION_MODE_EFFECTS[ceiling];
  const what =
    decision.allow === undefined
      ? decision.decision
      : `${decision.decision} (allow for the rest of the ${decision.allow})`;
  if (effect.flags.noHuman === true) {
    return refusal(card, what, ceiling, 'it denies every call that would ask a person');
  }
  if (effect.flags.readOnly === true) {
    const toolClass = cardToolClass(card.tool);
    if (toolClass === null || !READ_ONLY_CLASSES.has(toolClass)) {
      return refusal(
        card,
        what,
        ceiling,
        `it is read-only and '${card.tool}' is a tool of class ${toolClass ?? 'unknown'}`,
      );
    }
  }
  return null;
}

function refusal(
  card: Pick<ApprovalCard, 'id' | 'tool'>,
  what: string,
  ceiling: PermissionMode,
  why: string,
): DeputyError {
  return new DeputyError(
    'forbidden',
    `card ${card.id} (${card.tool}) cannot be given ${what} here: this door serves under permission mode ${ceiling}, and ${why}; it may only deny it (decide it through a door without that ceiling, such as the CLI or the console)`,
  );
}
