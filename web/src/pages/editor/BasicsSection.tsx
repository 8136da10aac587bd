/** Basics: name, description, level, model, approval and permission modes, turns, background. */
import type { ModelCatalog } from '../../api/types';
import type { FieldProblems } from './diagnostics';
import type { AgentForm, ApprovalMode, PermissionMode } from './form-model';
import { Problems, Section, describedBy, hasError } from './parts';
import type { Loaded } from './use-catalogs';

export interface SectionProps {
  form: AgentForm;
  update: (patch: Partial<AgentForm>) => void;
  problems: FieldProblems;
  disabled: boolean;
}

const APPROVAL_LABELS = {
  confirm: 'confirm: ask before every write, command and MCP call',
  'auto-in-workspace': 'auto-in-workspace: writes inside the writable roots run without asking',
  'auto-edit': 'auto-edit: writes anywhere in the workspace run without asking',
  'full-access': 'full-access: nothing asks',
} satisfies Record<ApprovalMode, string>;

const PERMISSION_LABELS = {
  default: 'default (runs as confirm)',
  acceptEdits: 'acceptEdits (runs as auto-edit)',
  dontAsk: 'dontAsk (confirm, no human: what would ask is denied)',
  bypassPermissions: 'bypassPermissions (full-access; protected paths still ask)',
  plan: 'plan (confirm, read-only)',
} satisfies Record<PermissionMode, string>;

export function BasicsSection({
  mode,
  models,
  ...props
}: SectionProps & { mode: 'create' | 'edit'; models: Loaded<ModelCatalog> }) {
  return (
    <Section title="Basics">
      <NameField {...props} mode={mode} />

      <DescriptionField {...props} />

      {mode === 'create' ? (
        <LevelField {...props} />
      ) : (
        <p className="hint">
          Level: <strong>{props.form.level}</strong>
        </p>
      )}

      <div className="field-row">
        <ModelField {...props} models={models} />
        <MaxTurnsField {...props} />
      </div>

      <ApprovalModeField {...props} />

      <PermissionModeField {...props} />

      <BackgroundField {...props} />
    </Section>
  );
}

function NameField({
  form,
  update,
  problems,
  disabled,
  mode,
}: SectionProps & { mode: 'create' | 'edit' }) {
  const p = problems.fields.name;
  return (
    <div className="field">
      <label htmlFor="agent-name">Name</label>
      <input
        id="agent-name"
        type="text"
        value={form.name}
        readOnly={mode === 'edit'}
        disabled={disabled && mode === 'create'}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={hasError(p)}
        aria-describedby={describedBy('agent-name-hint', 'agent-name-problems', p)}
        onChange={(event) => update({ name: event.target.value })}
      />
      <p className="hint" id="agent-name-hint">
        {mode === 'edit'
          ? 'A saved agent keeps its name: duplicate it to have another.'
          : 'Lower-case letters, digits and hyphens; what a delegation names.'}
      </p>
      <Problems id="agent-name-problems" problems={p} />
    </div>
  );
}

function DescriptionField({ form, update, problems, disabled }: SectionProps) {
  const p = problems.fields.description;
  return (
    <div className="field">
      <label htmlFor="agent-description">Description</label>
      <textarea
        id="agent-description"
        rows={3}
        value={form.description}
        disabled={disabled}
        aria-invalid={hasError(p)}
        aria-describedby={describedBy('agent-description-hint', 'agent-description-problems', p)}
        onChange={(event) => update({ description: event.target.value })}
      />
      <p className="hint" id="agent-description-hint">
        What a parent agent reads to decide whether to hand it a task.
      </p>
      <Problems id="agent-description-problems" problems={p} />
    </div>
  );
}

/** Where a new agent is written; a saved one stays at its level. */
function LevelField({ form, update, problems, disabled }: SectionProps) {
  return (
    <fieldset className="field" disabled={disabled}>
      <legend>Level</legend>
      <label className="inline">
        <input
          type="radio"
          name="agent-level"
          value="project"
          checked={form.level === 'project'}
          onChange={() => update({ level: 'project' })}
        />
        Project: this workspace (.subagents/agents)
      </label>
      <label className="inline">
        <input
          type="radio"
          name="agent-level"
          value="user"
          checked={form.level === 'user'}
          onChange={() => update({ level: 'user' })}
        />
        User: yours, in every workspace
      </label>
      <Problems id="agent-level-problems" problems={problems.fields.level} />
    </fieldset>
  );
}

function MaxTurnsField({ form, update, problems, disabled }: SectionProps) {
  const p = problems.fields.maxTurns;
  return (
    <div className="field">
      <label htmlFor="agent-max-turns">Max turns</label>
      <input
        id="agent-max-turns"
        type="number"
        min={1}
        step={1}
        placeholder="40"
        value={form.maxTurns}
        disabled={disabled}
        aria-invalid={hasError(p)}
        aria-describedby={describedBy('agent-max-turns-hint', 'agent-max-turns-problems', p)}
        onChange={(event) => update({ maxTurns: event.target.value })}
      />
      <p className="hint" id="agent-max-turns-hint">
        Model rounds per delegation; empty: 40.
      </p>
      <Problems id="agent-max-turns-problems" problems={p} />
    </div>
  );
}

function ApprovalModeField({ form, update, problems, disabled }: SectionProps) {
  const p = problems.fields.approvalMode;
  return (
    <div className="field">
      <label htmlFor="agent-approval-mode">Approval mode</label>
      <select
        id="agent-approval-mode"
        value={form.approvalMode}
        disabled={disabled}
        aria-invalid={hasError(p)}
        aria-describedby={describedBy(null, 'agent-approval-mode-problems', p)}
        onChange={(event) => update({ approvalMode: event.target.value as ApprovalMode | '' })}
      >
        <option value="">Not set: confirm, or what the permission mode maps to</option>
        {(Object.keys(APPROVAL_LABELS) as ApprovalMode[]).map((mode) => (
          <option key={mode} value={mode}>
            {APPROVAL_LABELS[mode]}
          </option>
        ))}
      </select>
      <Problems id="agent-approval-mode-problems" problems={p} />
    </div>
  );
}

function PermissionModeField({ form, update, problems, disabled }: SectionProps) {
  const p = problems.fields.permissionMode;
  return (
    <div className="field">
      <label htmlFor="agent-permission-mode">Permission mode (Claude Code)</label>
      <select
        id="agent-permission-mode"
        value={form.permissionMode}
        disabled={disabled}
        aria-describedby={describedBy(
          'agent-permission-mode-hint',
          'agent-permission-mode-problems',
          p,
        )}
        onChange={(event) => update({ permissionMode: event.target.value as PermissionMode | '' })}
      >
        <option value="">None</option>
        {(Object.keys(PERMISSION_LABELS) as PermissionMode[]).map((mode) => (
          <option key={mode} value={mode}>
            {PERMISSION_LABELS[mode]}
          </option>
        ))}
      </select>
      <p className="hint" id="agent-permission-mode-hint">
        When both are set, the approval mode wins.
      </p>
      <Problems id="agent-permission-mode-problems" problems={p} />
    </div>
  );
}

function BackgroundField({ form, update, problems, disabled }: SectionProps) {
  return (
    <div className="field">
      <label className="inline">
        <input
          type="checkbox"
          checked={form.background}
          disabled={disabled}
          aria-describedby="agent-background-hint"
          onChange={(event) => update({ background: event.target.checked })}
        />
        Always run in the background
      </label>
      <p className="hint" id="agent-background-hint">
        A delegation returns at once instead of waiting for the answer.
      </p>
      <Problems id="agent-background-problems" problems={problems.fields.background} />
    </div>
  );
}

function ModelField({
  form,
  update,
  problems,
  disabled,
  models,
}: SectionProps & { models: Loaded<ModelCatalog> }) {
  const p = problems.fields.model;
  const catalog = models.state === 'ready' ? models.value : null;
  const handles = catalog === null ? [] : catalog.models.map((model) => model.handle);
  const aliases = catalog === null ? [] : Object.keys(catalog.aliases);
  const known = new Set(['default', ...handles, ...aliases]);
  return (
    <div className="field">
      <label htmlFor="agent-model">Model</label>
      <select
        id="agent-model"
        value={form.model}
        disabled={disabled}
        aria-invalid={hasError(p)}
        aria-describedby={describedBy('agent-model-hint', 'agent-model-problems', p)}
        onChange={(event) => update({ model: event.target.value })}
      >
        <option value="default">
          default{catalog === null ? '' : ` (now ${catalog.default.resolvesTo})`}
        </option>
        {handles.map((handle) => (
          <option key={handle} value={handle}>
            {handle}
          </option>
        ))}
        {aliases.map((alias) => (
          <option key={alias} value={alias}>
            {alias} (alias of {catalog?.aliases[alias]})
          </option>
        ))}
        {known.has(form.model) ? null : (
          <option value={form.model}>{form.model} (as the definition writes it)</option>
        )}
      </select>
      <p className="hint" id="agent-model-hint">
        {models.state === 'failed'
          ? `The model list could not be loaded: ${models.problem}`
          : 'From the workspace configuration (models in .subagents/config.yaml).'}
      </p>
      <Problems id="agent-model-problems" problems={p} />
    </div>
  );
}
