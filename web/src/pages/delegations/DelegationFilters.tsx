/**
 * The list's filters, kept in the URL query (`?agent=&session=&status=`) so a filtered view can
 * be linked and survives a reload. Each change applies at once.
 */
import { DELEGATION_STATUSES, type DelegationFilter } from '../../api/delegations';
import type { DelegationStatus } from '../../api/types';

export function DelegationFilters({
  filter,
  agents,
  sessions,
  onChange,
}: {
  filter: DelegationFilter;
  agents: string[];
  sessions: string[];
  onChange(next: DelegationFilter): void;
}) {
  const set = (key: keyof DelegationFilter, value: string) => {
    const next: DelegationFilter = { ...filter };
    if (value === '') delete next[key];
    else if (key === 'status') next.status = value as DelegationStatus;
    else next[key] = value;
    onChange(next);
  };
  return (
    <form
      className="toolbar delegation-filters"
      aria-label="Filters"
      onSubmit={(e) => e.preventDefault()}
    >
      <FilterSelect
        id="filter-agent"
        label="Agent"
        all="All agents"
        value={filter.agent ?? ''}
        options={agents}
        onChange={(value) => set('agent', value)}
      />
      <FilterSelect
        id="filter-session"
        label="Session"
        all="All sessions"
        value={filter.session ?? ''}
        options={sessions}
        onChange={(value) => set('session', value)}
      />
      <FilterSelect
        id="filter-status"
        label="Status"
        all="Any status"
        value={filter.status ?? ''}
        options={[...DELEGATION_STATUSES]}
        onChange={(value) => set('status', value)}
      />
    </form>
  );
}

function FilterSelect({
  id,
  label,
  all,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  all: string;
  value: string;
  options: string[];
  onChange(value: string): void;
}) {
  // A value from a linked URL that no list knows (yet) is still shown, not silently dropped.
  const shown = value === '' || options.includes(value) ? options : [value, ...options];
  return (
    <span className="filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{all}</option>
        {shown.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </span>
  );
}
