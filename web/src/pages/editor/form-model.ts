/**
 * The editor's one model of an agent, and the three ways out of it: the full set of fields it
 * stands for (`fieldsOf`), a create body (defaults left out, so a new file spells only what the
 * user chose) and an update body (only what changed; a field set back to its default is cleared
 * with `null` rather than written out).
 *
 * MCP servers are kept in deputy's list form (`name` for a configured server, an object for an
 * inline one) exactly as the API showed them, `__redacted__` placeholders included: the server
 * puts the stored secrets back, so they survive a save without ever reaching the page.
 */
import type { AgentDetail } from '../../api/types';
import type { CreateAgentBody, UpdateAgentBody, WritableLevel } from '../../api/editor';

export type ApprovalMode = AgentDetail['approvalMode'];
export type PermissionMode = NonNullable<AgentDetail['permissionMode']>;
export type MemoryMode = AgentDetail['memory'];
export type KnowledgeSource = AgentDetail['knowledge'][number];
export type InlineServer = { name: string } & Record<string, unknown>;
export type McpEntry = string | InlineServer;

/** The lists whose entries name something that must exist (tools, skills, servers). */
export type NameList = 'tools' | 'disallowedTools' | 'skills' | 'mcpServers';

/** Fields the API shows that the form has no control for: kept, and written back unchanged. */
export interface Extras {
  cardTimeout: string | null;
  cardReminder: string | null;
  cardTimeoutOutcome: AgentDetail['cardTimeoutOutcome'] | null;
  hooks: AgentDetail['hooks'];
  /** As declared; the editor has no picker for it yet. */
  sandbox: AgentDetail['sandbox'] | null;
  color: string;
  icon: string;
  displayOrder: number;
}

export interface AgentForm {
  name: string;
  description: string;
  level: WritableLevel;
  model: string;
  /** '' = not set: `confirm`, or what `permissionMode` maps to. */
  approvalMode: ApprovalMode | '';
  permissionMode: PermissionMode | '';
  /** As typed; '' = the default (40). */
  maxTurns: string;
  background: boolean;
  systemPrompt: string;
  tools: string[];
  disallowedTools: string[];
  skills: string[];
  mcpServers: McpEntry[];
  knowledge: KnowledgeSource[];
  memory: MemoryMode;
  extras: Extras;
}

/** The definition defaults (src/definitions/definition.ts DEFINITION_DEFAULTS). */
const DEFAULTS = {
  model: 'default',
  memory: 'none',
  maxTurns: 40,
  background: false,
  color: '#31AEE4',
  icon: 'bot',
  displayOrder: 0,
} as const satisfies Partial<Record<keyof Fields, unknown>>;

export function emptyForm(level: WritableLevel = 'project'): AgentForm {
  return {
    name: '',
    description: '',
    level,
    model: DEFAULTS.model,
    approvalMode: '',
    permissionMode: '',
    maxTurns: '',
    background: false,
    systemPrompt: '',
    tools: [],
    disallowedTools: [],
    skills: [],
    mcpServers: [],
    knowledge: [],
    memory: 'none',
    extras: {
      cardTimeout: null,
      cardReminder: null,
      cardTimeoutOutcome: null,
      hooks: {},
      sandbox: null,
      color: DEFAULTS.color,
      icon: DEFAULTS.icon,
      displayOrder: DEFAULTS.displayOrder,
    },
  };
}

/** `{name: server}` as the detail shows it, back in deputy's list form (`{}` = configured). */
export function mcpEntriesOf(record: AgentDetail['mcpServers']): McpEntry[] {
  return Object.keys(record).map((name) => {
    const server = record[name] ?? {};
    return Object.keys(server).length === 0 ? name : { name, ...server };
  });
}

/** A knowledge row's identity for its problems: its name and glob together. */
export const knowledgeKey = (source: KnowledgeSource): string =>
  `${source.name}\u0000${source.glob}`;

export const mcpEntryName = (entry: McpEntry): string =>
  typeof entry === 'string' ? entry : entry.name;

/** An agent as the API shows it (GET, or the check's parse of a file), as the form holds it. */
export function formOf(agent: AgentDetail, level: WritableLevel): AgentForm {
  // The detail always names an approval mode (`confirm` by default). When permissionMode decides
  // instead, the effective mode differs from it: the file then sets no approvalMode.
  const approvalUnset =
    agent.permissionMode !== null && agent.effectivePolicy.approvalMode !== agent.approvalMode;
  return {
    name: agent.name,
    description: agent.description,
    level,
    model: agent.model,
    approvalMode: approvalUnset ? '' : agent.approvalMode,
    permissionMode: agent.permissionMode ?? '',
    maxTurns: String(agent.maxTurns),
    background: agent.background,
    systemPrompt: agent.systemPrompt,
    tools: [...agent.tools],
    disallowedTools: [...agent.disallowedTools],
    skills: [...agent.skills],
    mcpServers: mcpEntriesOf(agent.mcpServers),
    knowledge: agent.knowledge.map((source) => ({ ...source })),
    memory: agent.memory,
    extras: {
      cardTimeout: agent.cardTimeout ?? null,
      cardReminder: agent.cardReminder ?? null,
      cardTimeoutOutcome: agent.cardTimeoutOutcome ?? null,
      hooks: agent.hooks,
      sandbox: agent.sandbox ?? null,
      color: agent.color,
      icon: agent.icon,
      displayOrder: agent.displayOrder,
    },
  };
}

/** Every field the form stands for, in src/definitions/schema.ts order; `null` = not set. */
export interface Fields {
  name: string;
  description: string;
  model: string;
  tools: string[];
  disallowedTools: string[];
  skills: string[];
  mcpServers: McpEntry[];
  knowledge: KnowledgeSource[];
  memory: MemoryMode;
  /** A number, or the text as typed when it is not one (the server says why). */
  maxTurns: number | string | null;
  approvalMode: ApprovalMode | null;
  permissionMode: PermissionMode | null;
  background: boolean;
  cardTimeout: string | null;
  cardReminder: string | null;
  cardTimeoutOutcome: Extras['cardTimeoutOutcome'];
  hooks: Extras['hooks'];
  sandbox: Extras['sandbox'];
  color: string;
  icon: string;
  displayOrder: number;
  systemPrompt: string;
}

export function fieldsOf(form: AgentForm): Fields {
  const turns = form.maxTurns.trim();
  return {
    name: form.name.trim(),
    description: form.description,
    model: form.model,
    tools: form.tools,
    disallowedTools: form.disallowedTools,
    skills: form.skills,
    mcpServers: form.mcpServers,
    knowledge: form.knowledge,
    memory: form.memory,
    maxTurns: turns === '' ? null : Number.isFinite(Number(turns)) ? Number(turns) : turns,
    approvalMode: form.approvalMode === '' ? null : form.approvalMode,
    permissionMode: form.permissionMode === '' ? null : form.permissionMode,
    background: form.background,
    ...form.extras,
    systemPrompt: form.systemPrompt,
  };
}

type FieldKey = keyof Fields;

/** True when the field says nothing the definition's default does not say already. */
function isUnset(key: FieldKey, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  if (key === 'name' || key === 'description' || key === 'systemPrompt') return false;
  return Object.hasOwn(DEFAULTS, key) && DEFAULTS[key as keyof typeof DEFAULTS] === value;
}

/**
 * The fields a new file spells: what differs from the defaults. `approvalMode: confirm` is
 * kept when permissionMode is set too, where it is not the same as leaving it out.
 */
export function spelledFields(fields: Fields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields) as FieldKey[]) {
    const value = fields[key];
    if (key === 'approvalMode' && value === 'confirm' && fields.permissionMode === null) continue;
    if (key !== 'systemPrompt' && isUnset(key, value)) continue;
    out[key] = value;
  }
  return out;
}

export function createBody(fields: Fields, level: WritableLevel): CreateAgentBody {
  return { ...spelledFields(fields), level } as unknown as CreateAgentBody;
}

/** What the check reads for the form: the create body it would send. */
export function checkBody(fields: Fields): Record<string, unknown> {
  return spelledFields(fields);
}

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, (inner as Record<string, unknown>)[key]]),
        )
      : inner,
  );
}

/**
 * Only what changed from `before`. A field set back to nothing (or to its default) is sent as
 * `null`, which clears it from the file; the name never changes here (a saved agent keeps it).
 */
export function updateBody(before: Fields, after: Fields): UpdateAgentBody {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after) as FieldKey[]) {
    if (key === 'name') continue;
    if (canonical(before[key]) === canonical(after[key])) continue;
    const value = after[key];
    if (key === 'systemPrompt' || key === 'description') out[key] = value;
    else out[key] = isUnset(key, value) ? null : value;
  }
  return out as UpdateAgentBody;
}

export function isEmptyUpdate(body: UpdateAgentBody): boolean {
  return Object.keys(body).length === 0;
}
