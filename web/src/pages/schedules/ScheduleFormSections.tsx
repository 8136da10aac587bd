/**
 * The schedule form's sections: what runs (name, agent, task), when (cron or interval, and the
 * time zone), and the options every run gets. Each field's id is the form's id and a suffix.
 */
import { OVERLAP_POLICIES, type OverlapPolicy } from '../../api/schedules';
import type { ScheduleDraft } from './schedule-draft';

export interface SectionProps {
  draft: ScheduleDraft;
  set: (patch: Partial<ScheduleDraft>) => void;
  /** The id of the field with this suffix. */
  field: (suffix: string) => string;
}

export function WhatFields({
  draft,
  set,
  field,
  agents,
  chosen,
}: SectionProps & { agents: string[]; chosen: string }) {
  return (
    <>
      <div className="field">
        <label htmlFor={field('name')}>Name</label>
        <input
          id={field('name')}
          type="text"
          value={draft.name}
          aria-describedby={field('name-hint')}
          onChange={(event) => set({ name: event.target.value })}
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
          onChange={(event) => set({ agent: event.target.value })}
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
          value={draft.task}
          onChange={(event) => set({ task: event.target.value })}
        />
      </div>
    </>
  );
}

export function WhenFields({ draft, set, field }: SectionProps) {
  return (
    <>
      <fieldset className="field schedule-when">
        <legend>When</legend>
        <div className="when-choice">
          <input
            id={field('when-cron')}
            type="radio"
            name={field('when')}
            checked={draft.when === 'cron'}
            onChange={() => set({ when: 'cron' })}
          />
          <label htmlFor={field('when-cron')}>Cron</label>
          <input
            id={field('when-every')}
            type="radio"
            name={field('when')}
            checked={draft.when === 'every'}
            onChange={() => set({ when: 'every' })}
          />
          <label htmlFor={field('when-every')}>Every</label>
        </div>
        {draft.when === 'cron' ? (
          <CronField draft={draft} set={set} field={field} />
        ) : (
          <IntervalField draft={draft} set={set} field={field} />
        )}
      </fieldset>
      <div className="field">
        <label htmlFor={field('timezone')}>Time zone (optional)</label>
        <input
          id={field('timezone')}
          type="text"
          value={draft.timezone}
          placeholder="UTC"
          aria-describedby={field('timezone-hint')}
          onChange={(event) => set({ timezone: event.target.value })}
        />
        <p className="hint" id={field('timezone-hint')}>
          An IANA name such as Europe/Paris.
        </p>
      </div>
    </>
  );
}

function CronField({ draft, set, field }: SectionProps) {
  return (
    <>
      <label htmlFor={field('cron')}>Cron expression</label>
      <input
        id={field('cron')}
        type="text"
        className="code"
        value={draft.cron}
        placeholder="0 9 * * 1-5"
        aria-describedby={field('cron-hint')}
        onChange={(event) => set({ cron: event.target.value })}
      />
      <p className="hint" id={field('cron-hint')}>
        Five fields (minute hour day month weekday), read in the time zone below.
      </p>
    </>
  );
}

function IntervalField({ draft, set, field }: SectionProps) {
  return (
    <>
      <label htmlFor={field('every')}>Interval</label>
      <input
        id={field('every')}
        type="text"
        value={draft.every}
        placeholder="1h"
        aria-describedby={field('every-hint')}
        onChange={(event) => set({ every: event.target.value })}
      />
      <p className="hint" id={field('every-hint')}>
        A duration such as 30m, 1h or 1d.
      </p>
    </>
  );
}

export function RunOptionFields({ draft, set, field }: SectionProps) {
  return (
    <>
      <div className="field">
        <label htmlFor={field('overlap')}>Overlap</label>
        <select
          id={field('overlap')}
          value={draft.overlap}
          aria-describedby={field('overlap-hint')}
          onChange={(event) => set({ overlap: event.target.value as OverlapPolicy })}
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
          checked={draft.unattended}
          aria-describedby={field('unattended-hint')}
          onChange={(event) => set({ unattended: event.target.checked })}
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
          value={draft.cardTimeout}
          placeholder="2h"
          aria-describedby={field('card-timeout-hint')}
          onChange={(event) => set({ cardTimeout: event.target.value })}
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
          value={draft.maxTokens}
          aria-describedby={field('max-tokens-hint')}
          onChange={(event) => set({ maxTokens: event.target.value })}
        />
        <p className="hint" id={field('max-tokens-hint')}>
          The token budget of each run.
        </p>
      </div>
    </>
  );
}
