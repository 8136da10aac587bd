/**
 * Create a schedule: a name, an agent from the workspace's list (as the start form offers), the
 * task, when (a cron read in a time zone, or a fixed interval), and the options every run gets.
 * A refusal (a 422 with Temporal's reason for a cron it cannot read, 409 for a taken name, 404
 * for an unknown agent) shows under the form, which keeps everything as typed.
 */
import { useId, useState, type FormEvent } from 'react';
import {
  OVERLAP_POLICIES,
  createSchedule,
  type CreateScheduleRequest,
  type OverlapPolicy,
  type ScheduleDetail,
} from '../../api/schedules';
import { refusalText } from '../delegations/refusal-text';

type When = 'cron' | 'every';

export function ScheduleForm({
  agents,
  onCreated,
}: {
  agents: string[];
  onCreated: (created: ScheduleDetail) => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [agent, setAgent] = useState('');
  const [task, setTask] = useState('');
  const [when, setWhen] = useState<When>('cron');
  const [cron, setCron] = useState('');
  const [every, setEvery] = useState('');
  const [timezone, setTimezone] = useState('');
  const [overlap, setOverlap] = useState<OverlapPolicy>('skip');
  const [unattended, setUnattended] = useState(false);
  const [cardTimeout, setCardTimeout] = useState('');
  const [maxTokens, setMaxTokens] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const chosen = agent === '' ? (agents[0] ?? '') : agent;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    setCreated(null);
    const body: CreateScheduleRequest = {
      name: name.trim(),
      agent: chosen,
      task,
      ...(when === 'cron' ? { cron: cron.trim() } : { every: every.trim() }),
      ...(timezone.trim() === '' ? {} : { timezone: timezone.trim() }),
      overlap,
      ...(unattended ? { unattended: true } : {}),
      ...(cardTimeout.trim() === '' ? {} : { cardTimeout: cardTimeout.trim() }),
      // Sent as typed, so the API's own check answers a bad number.
      ...(maxTokens.trim() === '' ? {} : { maxTokens: Number(maxTokens) }),
    };
    createSchedule(body).then(
      (schedule) => {
        setBusy(false);
        setName('');
        setTask('');
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
  return (
    <form
      className="schedule-form panel"
      onSubmit={submit}
      noValidate
      aria-labelledby={field('title')}
    >
      <h2 id={field('title')}>Create a schedule</h2>
      <div className="field">
        <label htmlFor={field('name')}>Name</label>
        <input
          id={field('name')}
          type="text"
          value={name}
          aria-describedby={field('name-hint')}
          onChange={(event) => setName(event.target.value)}
        />
        <p className="hint" id={field('name-hint')}>
          1-40 letters, digits, _ or -. Each run&apos;s delegation id is the name and the run&apos;s
          time.
        </p>
      </div>
      <div className="field">
        <label htmlFor={field('agent')}>Agent</label>
        <select
          id={field('agent')}
          value={chosen}
          onChange={(event) => setAgent(event.target.value)}
        >
          {agents.map((agentName) => (
            <option key={agentName} value={agentName}>
              {agentName}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={field('task')}>Task</label>
        <textarea
          id={field('task')}
          rows={3}
          value={task}
          onChange={(event) => setTask(event.target.value)}
        />
      </div>
      <fieldset className="field schedule-when">
        <legend>When</legend>
        <div className="when-choice">
          <input
            id={field('when-cron')}
            type="radio"
            name={field('when')}
            checked={when === 'cron'}
            onChange={() => setWhen('cron')}
          />
          <label htmlFor={field('when-cron')}>Cron</label>
          <input
            id={field('when-every')}
            type="radio"
            name={field('when')}
            checked={when === 'every'}
            onChange={() => setWhen('every')}
          />
          <label htmlFor={field('when-every')}>Every</label>
        </div>
        {when === 'cron' ? (
          <>
            <label htmlFor={field('cron')}>Cron expression</label>
            <input
              id={field('cron')}
              type="text"
              className="code"
              value={cron}
              placeholder="0 9 * * 1-5"
              aria-describedby={field('cron-hint')}
              onChange={(event) => setCron(event.target.value)}
            />
            <p className="hint" id={field('cron-hint')}>
              Five fields (minute hour day month weekday), read in the time zone below.
            </p>
          </>
        ) : (
          <>
            <label htmlFor={field('every')}>Interval</label>
            <input
              id={field('every')}
              type="text"
              value={every}
              placeholder="1h"
              aria-describedby={field('every-hint')}
              onChange={(event) => setEvery(event.target.value)}
            />
            <p className="hint" id={field('every-hint')}>
              A duration such as 30m, 1h or 1d.
            </p>
          </>
        )}
      </fieldset>
      <div className="field">
        <label htmlFor={field('timezone')}>Time zone (optional)</label>
        <input
          id={field('timezone')}
          type="text"
          value={timezone}
          placeholder="UTC"
          aria-describedby={field('timezone-hint')}
          onChange={(event) => setTimezone(event.target.value)}
        />
        <p className="hint" id={field('timezone-hint')}>
          An IANA name such as Europe/Paris.
        </p>
      </div>
      <div className="field">
        <label htmlFor={field('overlap')}>Overlap</label>
        <select
          id={field('overlap')}
          value={overlap}
          aria-describedby={field('overlap-hint')}
          onChange={(event) => setOverlap(event.target.value as OverlapPolicy)}
        >
          {OVERLAP_POLICIES.map((policy) => (
            <option key={policy} value={policy}>
              {policy}
            </option>
          ))}
        </select>
        <p className="hint" id={field('overlap-hint')}>
          While the previous run still runs or waits on a card: skip the new one, start it once the
          previous finishes (buffer-one), or run both (allow-all).
        </p>
      </div>
      <div className="field field-inline">
        <input
          id={field('unattended')}
          type="checkbox"
          checked={unattended}
          aria-describedby={field('unattended-hint')}
          onChange={(event) => setUnattended(event.target.checked)}
        />
        <label htmlFor={field('unattended')}>Unattended</label>
        <p className="hint" id={field('unattended-hint')}>
          No one will answer: every call that would ask for approval is denied at once.
        </p>
      </div>
      <div className="field">
        <label htmlFor={field('card-timeout')}>Card timeout (optional)</label>
        <input
          id={field('card-timeout')}
          type="text"
          value={cardTimeout}
          placeholder="2h"
          aria-describedby={field('card-timeout-hint')}
          onChange={(event) => setCardTimeout(event.target.value)}
        />
        <p className="hint" id={field('card-timeout-hint')}>
          How long each run&apos;s approval cards wait.
        </p>
      </div>
      <div className="field">
        <label htmlFor={field('max-tokens')}>Max tokens (optional)</label>
        <input
          id={field('max-tokens')}
          type="number"
          min={1}
          step={1}
          value={maxTokens}
          aria-describedby={field('max-tokens-hint')}
          onChange={(event) => setMaxTokens(event.target.value)}
        />
        <p className="hint" id={field('max-tokens-hint')}>
          The token budget of each run.
        </p>
      </div>
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
