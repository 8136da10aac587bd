/**
 * One tolerant reader per DEF-1 field. A reader either sets its field or leaves the default
 * and says why in a diagnostic; list readers keep the valid entries and report the others.
 * This module dispatches each key to its reader and keeps the keys no reader knows.
 */
import { CARD_TIMEOUT_OUTCOMES } from '../../shared/capability-snapshot.js';
import { APPROVAL_MODES } from '../../shared/policy-contract.js';
import type { AgentDefinition } from '../definition.js';
import { UNSUPPORTED_FIELDS, ecosystemNotes } from '../ecosystem.js';
import {
  readHooks,
  readKnowledge,
  readMcpServers,
  readMemory,
  readSkills,
  readToolList,
} from './capabilities.js';
import { report, type ReadContext, type Values } from './context.js';
import {
  readBoolean,
  readDuration,
  readEnum,
  readInteger,
  readModel,
  readPositiveInteger,
  readText,
} from './scalars.js';
import {
  RUN_CONFIG_TURNS_PATH,
  readRunConfig,
  resolveTurns,
  type TurnsCandidate,
} from './turns.js';
import { PERMISSION_MODE_EFFECTS } from './permission-mode.js';
import { FRONTMATTER_FIELDS, PERMISSION_MODES, toolsLackRead } from '../schema.js';

export { INVALID_TOOLS_SPEC } from './capabilities.js';
export type { ReadContext } from './context.js';

const KNOWN_KEYS = new Set<string>([...FRONTMATTER_FIELDS, 'maxToolRounds', 'runConfig']);
const KNOWN_BY_LOWER = new Map(
  [...KNOWN_KEYS].map((key) => [key.toLowerCase().replace(/[_-]/g, ''), key]),
);

export function readFields(values: Values, definition: AgentDefinition, ctx: ReadContext): void {
  const turns: TurnsCandidate[] = [];
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (value === null || value === undefined) {
      if (!KNOWN_KEYS.has(key)) keepUnknown(key, value, definition, ctx);
      continue;
    }
    switch (key) {
      case 'name':
        break;
      case 'description':
        definition.description = readText(key, value, ctx) ?? definition.description;
        break;
      case 'model':
        definition.model = readModel(value, ctx);
        if (typeof value === 'string' && value.trim() === 'inherit')
          definition.inheritsModel = true;
        break;
      case 'tools':
        definition.tools = readToolList(key, value, ctx, true);
        break;
      case 'disallowedTools':
        definition.disallowedTools = readToolList(key, value, ctx, false) ?? [];
        break;
      case 'skills':
        definition.skills = readSkills(value, ctx);
        break;
      case 'mcpServers':
        definition.mcpServers = readMcpServers(value, ctx);
        break;
      case 'knowledge':
        definition.knowledge = readKnowledge(value, ctx);
        break;
      case 'memory':
        definition.memory = readMemory(value, ctx) ?? definition.memory;
        break;
      case 'maxTurns':
      case 'maxToolRounds': {
        const turnsValue = readPositiveInteger(key, value, ctx);
        if (turnsValue !== undefined) turns.push({ path: key, value: turnsValue });
        break;
      }
      case 'runConfig': {
        const turnsValue = readRunConfig(value, ctx);
        if (turnsValue !== undefined)
          turns.push({ path: RUN_CONFIG_TURNS_PATH, value: turnsValue });
        // Kept whole so write-back and the API round-trip qwen-code's other settings.
        definition.unknownKeys[key] = value;
        break;
      }
      case 'maxTokens': {
        const budget = readPositiveInteger(key, value, ctx);
        if (budget !== undefined) definition.maxTokens = budget;
        break;
      }
      case 'approvalMode':
        definition.approvalMode =
          readEnum(key, value, APPROVAL_MODES, ctx) ?? definition.approvalMode;
        break;
      case 'permissionMode':
        definition.permissionMode = readEnum(key, value, PERMISSION_MODES, ctx) ?? null;
        if (definition.permissionMode !== null) readPermissionMode(values, definition, ctx);
        break;
      case 'background':
        definition.background = readBoolean(key, value, ctx) ?? definition.background;
        break;
      case 'cardTimeout':
      case 'cardReminder': {
        const duration = readDuration(key, value, ctx);
        if (duration !== undefined) definition[key] = duration;
        break;
      }
      case 'cardTimeoutOutcome': {
        const outcome = readEnum(key, value, CARD_TIMEOUT_OUTCOMES, ctx);
        if (outcome !== undefined) definition.cardTimeoutOutcome = outcome;
        break;
      }
      case 'hooks':
        definition.hooks = readHooks(value, ctx);
        break;
      case 'color':
      case 'icon':
        definition[key] = readText(key, value, ctx) ?? definition[key];
        break;
      case 'displayOrder':
        definition.displayOrder = readInteger(key, value, ctx) ?? definition.displayOrder;
        break;
      default:
        keepUnknown(key, value, definition, ctx);
    }
  }
  if (values.description === undefined || values.description === null) {
    definition.description = definition.name;
    report(
      ctx,
      'info',
      'description',
      'description.missing',
      `no description: the name '${definition.name}' is shown instead`,
    );
  }
  resolveTurns(turns, definition, ctx);
  ecosystemNotes(values, ctx);
  if (definition.knowledge.length > 0 && toolsLackRead(definition.tools)) {
    report(
      ctx,
      'warning',
      'knowledge',
      'knowledge.without-read',
      'knowledge sources are declared but tools does not include read: the agent can search them but not open the files',
    );
  }
}

/**
 * Claude Code's permissionMode maps onto the policy (PERMISSION_MODE_EFFECTS). deputy's own
 * `approvalMode` wins when the file sets both: it was written for deputy, permissionMode for
 * Claude Code.
 */
function readPermissionMode(values: Values, definition: AgentDefinition, ctx: ReadContext): void {
  const mode = definition.permissionMode;
  if (mode === null) return;
  const effect = PERMISSION_MODE_EFFECTS[mode];
  const approvalMode = values.approvalMode;
  const approvalSet = (APPROVAL_MODES as readonly unknown[]).includes(approvalMode);
  if (approvalSet) {
    delete definition.permissionModeApplies;
    report(
      ctx,
      'warning',
      'permissionMode',
      'permission-mode.overridden',
      `permissionMode '${mode}' and approvalMode '${String(approvalMode)}' are both set: approvalMode wins, so permissionMode changes nothing (alone it would map to approvalMode ${effect.approvalMode}: ${effect.meaning})`,
    );
    return;
  }
  definition.permissionModeApplies = true;
  report(
    ctx,
    'info',
    'permissionMode',
    'permission-mode.mapped',
    `permissionMode '${mode}' maps to approvalMode ${effect.approvalMode}: ${effect.meaning}`,
  );
}

function keepUnknown(
  key: string,
  value: unknown,
  definition: AgentDefinition,
  ctx: ReadContext,
): void {
  definition.unknownKeys[key] = value;
  if (Object.hasOwn(UNSUPPORTED_FIELDS, key)) {
    report(
      ctx,
      'warning',
      key,
      'field.unsupported',
      `${UNSUPPORTED_FIELDS[key]}; kept in the file unchanged`,
    );
    return;
  }
  const suggestion = KNOWN_BY_LOWER.get(key.toLowerCase().replace(/[_-]/g, ''));
  report(
    ctx,
    'warning',
    key,
    'field.unknown',
    `unknown field '${key}' is ignored and kept in the file unchanged${suggestion === undefined ? '' : `; did you mean '${suggestion}'?`}`,
  );
}
