/** The sessions list as a table: one row per session, newest first as the API lists them. */
import { Link } from 'react-router';
import { sessionRoute, type SessionSummary } from '../../api/sessions';
import { StatusBadge } from '../delegations/StatusBadge';
import { AbsoluteTime } from '../inbox/time';

export function SessionTable({ rows }: { rows: SessionSummary[] }) {
  return (
    <table className="list session-table">
      <caption className="visually-hidden">Sessions</caption>
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">Agent</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col" className="number">
            Pending cards
          </th>
          <th scope="col">First message</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.sessionId}>
            <td>
              <Link to={sessionRoute(row.sessionId)}>
                <code>{row.sessionId}</code>
              </Link>
            </td>
            <td>{row.agent ?? '—'}</td>
            <td>
              <StatusBadge status={row.status} />
            </td>
            <td>
              <AbsoluteTime iso={row.startedAt} />
            </td>
            <td className="number">
              {row.pendingCards > 0 ? (
                <span className="chip warning">{row.pendingCards}</span>
              ) : (
                row.pendingCards
              )}
            </td>
            <td className="first-message">{row.firstMessage ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
