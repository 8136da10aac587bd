/**
 * Create a schedule: a name, an agent from the workspace's list (as the start form offers), the
 * task, when (a cron read in a time zone, or a fixed interval), and the options every run gets.
 * A refusal (a 422 with Temporal's reason for a cron it cannot read, 409 for a taken name, 404
 * for an unknown agent) shows under the form, which keeps everything as typed.
 */
import { useId, useState, type FormEvent } from 'react';
import { createSchedule, type ScheduleDetail } from '../../api/schedules';
import { refusalText } from '../delegations/refusal-text';
import { EMPTY_DRAFT, scheduleRequest, type ScheduleDraft } from './schedule-draft';
import { RunOptionFields, WhatFields, WhenFields } from './ScheduleFormSections';

export function ScheduleForm({
  agents,
  onCreated,
}: {
  agents: string[];
  onCreated: (created: ScheduleDetail) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<ScheduleDraft>(EMPTY_DRAFT);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const chosen = draft.agent === '' ? (agents[0] ?? '') : draft.agent;
  const set = (patch: Partial<ScheduleDraft>) => setDraft((now) => ({ ...now, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    setCreated(null);
    createSchedule(scheduleRequest(draft, chosen)).then(
      (schedule) => {
        setBusy(false);
        set({ name: '', task: '' });
        setCreated(`Created ${schedule.name}.`);
        onCreated(schedule);
      },
      (error: unknown) => {
        setBusy(false);
        setProblem(refusalText(error));
      },
    );
  };

  const field = (suffix: string) => `${id}-${suffix}`;
  const sections = { draft, set, field };
  return (
    <form
      className="schedule-form panel"
      onSubmit={submit}
      noValidate
      aria-labelledby={field('title')}
    >
      <h2 id={field('title')}>Create a schedule</h2>
      <WhatFields {...sections} agents={agents} chosen={chosen} />
      <WhenFields {...sections} />
      <RunOptionFields {...sections} />
      {problem === null ? null : (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {created === null ? null : (
        <p className="hint" role="status">
          {created}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy || chosen === ''}>
        {busy ? 'Creating…' : 'Create schedule'}
      </button>
    </form>
  );
}
