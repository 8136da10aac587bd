/**
 * The frontmatter fields by group, one reader per group: what the agent is and how it is shown,
 * what it may use, how long it may run, and how its calls are approved. Each reader takes the keys
 * of its group and answers false for any other key, so readFields can try them in turn.
 */
import { CARD_TIMEOUT_OUTCOMES } from '../../shared/capability-snapshot.js';
import { APPROVAL_MODES } from '../../shared/policy-contract.js';
import type { AgentDefinition } from '../definition.js';
import {
  readHooks,
  readKnowledge,
  readMcpServers,
  readMemory,
  readSkills,
  readToolList,
} from './capabilities.js';
import { report, type ReadContext, type Values } from './context.js';
import { PERMISSION_MODE_EFFECTS } from '../../policy/permission-mode.js';
import {
  readBoolean,
  readDuration,
  readEnum,
  readInteger,
  readModel,
  readPositiveInteger,
  readText,
} from './scalars.js';
import { readSandbox } from './sandbox.js';
import { RUN_CONFIG_TURNS_PATH, readRunConfig, type TurnsCandidate } from './turns.js';
import { PERMISSION_MODES } from '../schema.js';

/** One file's read in progress: its raw values, the definition being filled, what it found. */
export interface FieldsRead {
  values: Values;
  definition: AgentDefinition;
  ctx: ReadContext;
  /** Turn limits as each field declared them; resolveTurns picks one once every key is read. */
  turns: TurnsCandidate[];
}

/** Reads `key` when it belongs to the group; false leaves it for the next group. */
export type FieldGroupReader = (key: string, value: unknown, read: FieldsRead) => boolean;

/** name (already read by the parser), description, model and how the console shows the agent. */
export const readIdentityField: FieldGroupReader = (key, value, { definition, ctx }) => {
  switch (key) {
    case 'name':
      return true;
    case 'description':
      definition.description = readText(key, value, ctx) ?? definition.description;
      return true;
    case 'model':
      definition.model = readModel(value, ctx);
      if (typeof value === 'string' && value.trim() === 'inherit') definition.inheritsModel = true;
      return true;
    case 'color':
    case 'icon':
      definition[key] = readText(key, value, ctx) ?? definition[key];
      return true;
    case 'displayOrder':
      definition.displayOrder = readInteger(key, value, ctx) ?? definition.displayOrder;
      return true;
    default:
      return false;
  }
};

/** What the agent may use: tools, skills, MCP servers, knowledge, memory, hooks and the sandbox. */
export const readCapabilityField: FieldGroupReader = (key, value, { definition, ctx }) => {
  switch (key) {
    case 'tools':
      definition.tools = readToolList(key, value, ctx, true);
      return true;
    case 'disallowedTools':
      definition.disallowedTools = readToolList(key, value, ctx, false) ?? [];
      return true;
    case 'skills':
      definition.skills = readSkills(value, ctx);
      return true;
    case 'mcpServers':
      definition.mcpServers = readMcpServers(value, ctx);
      return true;
    case 'knowledge':
      definition.knowledge = readKnowledge(value, ctx);
      return true;
    case 'memory':
      definition.memory = readMemory(value, ctx) ?? definition.memory;
      return true;
    case 'hooks':
      definition.hooks = readHooks(value, ctx);
      return true;
    case 'sandbox':
      definition.sandbox = readSandbox(value, ctx);
      return true;
    default:
      return false;
  }
};

/** How long the agent may run: the turn limit (three spellings) and the token budget. */
export const readLimitField: FieldGroupReader = (key, value, { definition, ctx, turns }) => {
  switch (key) {
    case 'maxTurns':
    case 'maxToolRounds': {
      const turnsValue = readPositiveInteger(key, value, ctx);
      if (turnsValue !== undefined) turns.push({ path: key, value: turnsValue });
      return true;
    }
    case 'runConfig': {
      const turnsValue = readRunConfig(value, ctx);
      if (turnsValue !== undefined) turns.push({ path: RUN_CONFIG_TURNS_PATH, value: turnsValue });
      // Kept whole so write-back and the API round-trip qwen-code's other settings.
      definition.unknownKeys[key] = value;
      return true;
    }
    case 'maxTokens': {
      const budget = readPositiveInteger(key, value, ctx);
      if (budget !== undefined) definition.maxTokens = budget;
      return true;
    }
    default:
      return false;
  }
};

/** How the agent's calls are approved and its cards answered, and whether it runs detached. */
export const readApprovalField: FieldGroupReader = (key, value, read) => {
  const { definition, ctx } = read;
  switch (key) {
    case 'approvalMode':
      definition.approvalMode =
        readEnum(key, value, APPROVAL_MODES, ctx) ?? definition.approvalMode;
      return true;
    case 'permissionMode':
      definition.permissionMode = readEnum(key, value, PERMISSION_MODES, ctx) ?? null;
      if (definition.permissionMode !== null) readPermissionMode(read.values, definition, ctx);
      return true;
    case 'background':
      definition.background = readBoolean(key, value, ctx) ?? definition.background;
      return true;
    case 'cardTimeout':
    case 'cardReminder': {
      const duration = readDuration(key, value, ctx);
      if (duration !== undefined) definition[key] = duration;
      return true;
    }
    case 'cardTimeoutOutcome': {
      const outcome = readEnum(key, value, CARD_TIMEOUT_OUTCOMES, ctx);
      if (outcome !== undefined) definition.cardTimeoutOutcome = outcome;
      return true;
    }
    default:
      return false;
  }
};

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
