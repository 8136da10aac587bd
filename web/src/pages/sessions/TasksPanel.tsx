/**
 * The tasks a session's agent started with `Task` (from its state): each one's agent, what it
 * was asked, its status, rounds and cards waiting, linked to its own delegation page.
 */
import { Link } from 'react-router';
import type { SessionState } from '../../api/sessions';
import { StatusBadge } from '../delegations/StatusBadge';
import { AbsoluteTime } from '../inbox/time';

export function TasksPanel({ tasks }: { tasks: SessionState['tasks'] }) {
  if (tasks.length === 0) return <p className="empty">No task started yet.</p>;
  return (
    <table className="list session-tasks">
      <caption className="visually-hidden">Tasks</caption>
      <thead>
        <tr>
          <th scope="col">Task</th>
          <th scope="col">Agent</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col" className="number">
            Rounds
          </th>
          <th scope="col" className="number">
            Pending cards
          </th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => (
          <tr key={task.taskId}>
            <td>
              <Link to={`/delegations/${encodeURIComponent(task.taskId)}`}>
                <code>{task.taskId}</code>
              </Link>
            </td>
            <td>{task.agent}</td>
            <td>
              <StatusBadge status={task.status} />
              {task.background ? <span className="chip">background</span> : null}
            </td>
            <td>
              <AbsoluteTime iso={task.startedAt} />
            </td>
            <td className="number">{task.roundsUsed}</td>
            <td className="number">
              {task.pendingCards > 0 ? (
                <span className="chip warning">{task.pendingCards}</span>
              ) : (
                task.pendingCards
              )}
            </td>
            <td>{task.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
