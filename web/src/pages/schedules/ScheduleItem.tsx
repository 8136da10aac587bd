/**
 * One schedule as a card: when it runs, its overlap policy, whether it is paused, its next run
 * and its latest runs (each a link to its delegation's page), with Pause or Resume, Run now and
 * Delete (after a confirmation). A refused action (403 not its creator, 404 deleted meanwhile)
 * shows on the card; a trigger says it was accepted, since its run shows only a moment later.
 */
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { seg } from '../../api/client';
import {
  deleteSchedule,
  pauseSchedule,
  resumeSchedule,
  triggerSchedule,
  type ScheduleDetail,
} from '../../api/schedules';
import { ConfirmDialog } from '../agents/ConfirmDialog';
import { refusalText } from '../delegations/refusal-text';
import { StatusBadge } from '../delegations/StatusBadge';
import { absoluteText } from '../inbox/time';

/** How many of the recent runs (newest first) a card lists. */
const RUNS_SHOWN = 5;

export function ScheduleItem({
  schedule,
  onChanged,
}: {
  schedule: ScheduleDetail;
  onChanged: () => void;
}) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);

  const act = (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    action().then(
      () => {
        setBusy(false);
        setNotice(done);
        onChanged();
      },
      (error: unknown) => {
        setBusy(false);
        setProblem(refusalText(error));
      },
    );
  };
  const remove = () => {
    setBusy(true);
    setDeleteError(null);
    deleteSchedule(schedule.name).then(
      () => {
        setBusy(false);
        setConfirming(false);
        onChanged();
      },
      (error: unknown) => {
        setBusy(false);
        setDeleteError(error);
      },
    );
  };

  return (
    <article className="schedule panel" aria-labelledby={`${id}-name`}>
      <div className="schedule-title">
        <h2 id={`${id}-name`}>{schedule.name}</h2>
        {schedule.paused ? (
          <span className="badge schedule-paused">paused</span>
        ) : (
          <span className="badge schedule-active">active</span>
        )}
      </div>
      <p className="schedule-task">{schedule.task}</p>
      <ScheduleFacts schedule={schedule} />
      <ScheduleActions
        schedule={schedule}
        busy={busy}
        act={act}
        onDelete={() => {
          setDeleteError(null);
          setConfirming(true);
        }}
      />
      {problem === null ? null : (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {notice === null ? null : (
        <p className="hint" role="status">
          {notice}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Delete schedule ${schedule.name}?`}
        confirmLabel="Delete schedule"
        danger
        busy={busy}
        error={deleteError}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      >
        <p>No more runs start. Runs already started go on.</p>
      </ConfirmDialog>
    </article>
  );
}

function ScheduleFacts({ schedule }: { schedule: ScheduleDetail }) {
  const runs = schedule.recentRuns.slice(0, RUNS_SHOWN);
  return (
    <dl className="detail-facts schedule-facts">
      <div>
        <dt>Agent</dt>
        <dd>{schedule.agent}</dd>
      </div>
      <div>
        <dt>When</dt>
        <dd>{whenText(schedule)}</dd>
      </div>
      <div>
        <dt>Overlap</dt>
        <dd>{schedule.overlap}</dd>
      </div>
      <div>
        <dt>Next run</dt>
        <dd>
          {schedule.nextRunAt === null
            ? schedule.paused
              ? 'none while paused'
              : 'none'
            : absoluteText(schedule.nextRunAt)}
        </dd>
      </div>
      <div className="runs-fact">
        <dt>Runs</dt>
        <dd>
          {runs.length === 0 ? (
            'none yet'
          ) : (
            <ul className="schedule-runs" aria-label={`Recent runs of ${schedule.name}`}>
              {runs.map((run) => (
                <li key={run.delegationId}>
                  <Link to={`/delegations/${seg(run.delegationId)}`}>{run.delegationId}</Link>{' '}
                  <StatusBadge status={run.status} />
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
    </dl>
  );
}

/** Pause or Resume, Run now, and Delete (which asks first). */
function ScheduleActions({
  schedule,
  busy,
  act,
  onDelete,
}: {
  schedule: ScheduleDetail;
  busy: boolean;
  act: (action: () => Promise<unknown>, done: string) => void;
  onDelete: () => void;
}) {
  return (
    <div className="toolbar">
      {schedule.paused ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => act(() => resumeSchedule(schedule.name), 'Resumed.')}
        >
          Resume
        </button>
      ) : (
        <button
          type="button"
          disabled={busy}
          onClick={() => act(() => pauseSchedule(schedule.name), 'Paused.')}
        >
          Pause
        </button>
      )}
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          act(
            () => triggerSchedule(schedule.name),
            `Run started (overlap: ${schedule.overlap}); it shows under Runs in a moment.`,
          )
        }
      >
        Run now
      </button>
      <button type="button" className="danger" disabled={busy} onClick={onDelete}>
        Delete
      </button>
    </div>
  );
}

function whenText(schedule: ScheduleDetail): string {
  const rule = schedule.cron === null ? `every ${schedule.every ?? '?'}` : `cron ${schedule.cron}`;
  return `${rule} (${schedule.timezone})`;
}
