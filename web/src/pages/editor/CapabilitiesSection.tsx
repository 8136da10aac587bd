/**
 * Capabilities: skills and MCP servers, each a compact select-and-add over the API's own list
 * (never free text), the chosen ones removable; and the memory mode, explained in plain words.
 * Shared memory is allowed and said plainly: informed, not prevented.
 */
import { useId, useState } from 'react';
import type { McpServerList, SkillList } from '../../api/editor';
import { mcpEntryName, type McpEntry, type MemoryMode } from './form-model';
import type { SectionProps } from './BasicsSection';
import { NameChip, Problems, Section, UnresolvedChip } from './parts';
import type { Loaded } from './use-catalogs';

/** The cap the server enforces (src/definitions/schema.ts MAX_SKILLS). */
const MAX_SKILLS = 16;

const MEMORY = [
  {
    mode: 'none',
    label: 'None',
    text: 'No memory: no memory tools, nothing remembered between delegations.',
  },
  {
    mode: 'private',
    label: 'Private (recommended)',
    text: 'Its own memory directory: it remembers what it learns, and nothing it writes reaches the main agent.',
  },
  {
    mode: 'shared',
    label: 'Shared',
    text: "Writes into the main agent's memory: what this agent records (right or wrong) goes into the main agent's next prompts.",
  },
] as const satisfies ReadonlyArray<{ mode: MemoryMode; label: string; text: string }>;

export function CapabilitiesSection({
  skills,
  mcp,
  ...props
}: SectionProps & { skills: Loaded<SkillList>; mcp: Loaded<McpServerList> }) {
  return (
    <Section title="Capabilities">
      <SkillsField {...props} skills={skills} />
      <McpServersField {...props} mcp={mcp} />
      <MemoryField {...props} />
    </Section>
  );
}

function SkillsField({
  form,
  update,
  problems,
  disabled,
  skills,
}: SectionProps & { skills: Loaded<SkillList> }) {
  const candidates =
    skills.state === 'ready'
      ? skills.value.skills.map((skill) => ({
          value: skill.name,
          label: `${skill.name}: ${skill.description}`,
        }))
      : [];
  return (
    <AddField
      title="Skills"
      addLabel="Add skill"
      hint={
        skills.state === 'failed'
          ? `The skill list could not be loaded: ${skills.problem}`
          : `From the workspace's skill layers; at most ${MAX_SKILLS}.`
      }
      list="skills"
      names={form.skills}
      candidates={candidates}
      full={form.skills.length >= MAX_SKILLS}
      problems={problems}
      disabled={disabled}
      emptyText="No skills: no skill catalog, and use_skill is unavailable."
      onChange={(names) => update({ skills: names })}
    />
  );
}

function McpServersField({
  form,
  update,
  problems,
  disabled,
  mcp,
}: SectionProps & { mcp: Loaded<McpServerList> }) {
  // Only servers the workspace configures can be named; inline ones are written in a definition.
  const candidates =
    mcp.state === 'ready'
      ? mcp.value.servers
          .filter((server) => !server.source.startsWith('agent '))
          .map((server) => ({
            value: server.name,
            label: `${server.name} (${server.transport}, ${server.enabled ? server.status : 'disabled'}, ${server.source})`,
          }))
      : [];
  const names = form.mcpServers.map(mcpEntryName);
  const entryOf = (name: string): McpEntry | undefined =>
    form.mcpServers.find((entry) => mcpEntryName(entry) === name);
  return (
    <AddField
      title="MCP servers"
      addLabel="Add server"
      hint={
        mcp.state === 'failed'
          ? `The MCP servers could not be loaded: ${mcp.problem}`
          : 'Servers configured for the workspace (.subagents/config.yaml, .mcp.json).'
      }
      list="mcpServers"
      names={names}
      noteOf={(name) => (typeof entryOf(name) === 'string' ? undefined : 'inline')}
      candidates={candidates}
      full={false}
      problems={problems}
      disabled={disabled}
      emptyText="No MCP servers: no MCP tool is reachable."
      onChange={(next) =>
        update({
          mcpServers: next.map((name) => entryOf(name) ?? name),
        })
      }
    />
  );
}

interface AddFieldProps {
  title: string;
  addLabel: string;
  hint: string;
  list: 'skills' | 'mcpServers';
  names: string[];
  noteOf?: (name: string) => string | undefined;
  candidates: Array<{ value: string; label: string }>;
  full: boolean;
  problems: SectionProps['problems'];
  disabled: boolean;
  emptyText: string;
  onChange: (names: string[]) => void;
}

function AddField(props: AddFieldProps) {
  const { title, hint, list, names, problems, emptyText } = props;
  const id = useId();
  const entryProblems = problems.entries[list];
  const rowProblems = names.flatMap((name) => entryProblems?.get(name) ?? []);
  return (
    <div className="field capability" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      {names.length === 0 ? <p className="hint">{emptyText}</p> : <Chosen {...props} />}
      <Problems
        id={`${id}-problems`}
        problems={[...(problems.fields[list] ?? []), ...rowProblems]}
      />
      <AddRow {...props} id={id} />
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
    </div>
  );
}

/** The names chosen, each removable; one that resolves to nothing says so. */
function Chosen({ list, names, noteOf, problems, disabled, onChange }: AddFieldProps) {
  const unresolved = problems.unresolved[list];
  return (
    <div className="chips">
      {names.map((name) => {
        const why = unresolved.get(name);
        const remove = () => onChange(names.filter((entry) => entry !== name));
        return why === undefined ? (
          <NameChip
            key={name}
            name={name}
            {...(noteOf?.(name) === undefined ? {} : { note: noteOf(name)! })}
            disabled={disabled}
            onRemove={remove}
          />
        ) : (
          <UnresolvedChip key={name} name={name} why={why} disabled={disabled} onRemove={remove} />
        );
      })}
    </div>
  );
}

/** A select of the candidates not chosen yet, and the button that adds the one picked. */
function AddRow({
  id,
  title,
  addLabel,
  names,
  candidates,
  full,
  disabled,
  onChange,
}: AddFieldProps & { id: string }) {
  const [choice, setChoice] = useState('');
  const offered = candidates.filter((candidate) => !names.includes(candidate.value));
  const chosen = offered.some((candidate) => candidate.value === choice) ? choice : '';
  return (
    <div className="add-row">
      <label htmlFor={`${id}-choice`} className="visually-hidden">
        {title}: choose one to add
      </label>
      <select
        id={`${id}-choice`}
        value={chosen}
        disabled={disabled || full || offered.length === 0}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setChoice(event.target.value)}
      >
        <option value="">
          {offered.length === 0 ? 'Nothing more to add' : full ? 'The list is full' : 'Choose…'}
        </option>
        {offered.map((candidate) => (
          <option key={candidate.value} value={candidate.value}>
            {candidate.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={disabled || chosen === ''}
        onClick={() => {
          onChange([...names, chosen]);
          setChoice('');
        }}
      >
        {addLabel}
      </button>
    </div>
  );
}

function MemoryField({ form, update, problems, disabled }: SectionProps) {
  return (
    <fieldset className="field memory" disabled={disabled}>
      <legend>Memory</legend>
      {MEMORY.map((option) => (
        <div key={option.mode} className="memory-option">
          <label className="inline">
            <input
              type="radio"
              name="agent-memory"
              value={option.mode}
              checked={form.memory === option.mode}
              aria-describedby={`memory-${option.mode}-text`}
              onChange={() => update({ memory: option.mode })}
            />
            {option.label}
          </label>
          <p
            id={`memory-${option.mode}-text`}
            className={option.mode === 'shared' ? 'hint shared-note' : 'hint'}
          >
            {option.text}
          </p>
        </div>
      ))}
      <Problems id="agent-memory-problems" problems={problems.fields.memory} />
    </fieldset>
  );
}
