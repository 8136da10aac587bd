/** The delegations list as a table: one row per delegation, newest first as the API lists them. */
import { Link } from 'react-router';
import type { DelegationSummary } from '../../api/delegations';
import { AbsoluteTime } from '../inbox/time';
import { StatusBadge } from './StatusBadge';

export function DelegationTable({ rows }: { rows: DelegationSummary[] }) {
  return (
    <table className="list delegation-table">
      <caption className="visually-hidden">Delegations</caption>
      <thead>
        <tr>
          <th scope="col">Delegation</th>
          <th scope="col">Agent</th>
          <th scope="col">Status</th>
          <th scope="col">Session</th>
          <th scope="col">Started</th>
          <th scope="col" className="number">
            Pending cards
          </th>
          <th scope="col" className="number">
            Tokens
          </th>
          <th scope="col">Task</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.delegationId}>
            <td>
              <Link to={`/delegations/${encodeURIComponent(row.delegationId)}`}>
                <code>{row.delegationId}</code>
              </Link>
            </td>
            <td>{row.agent ?? '—'}</td>
            <td>
              <StatusBadge status={row.status} />
            </td>
            <td>{row.session ?? '—'}</td>
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
            <td className="number">{row.tokens === null ? '—' : row.tokens.toLocaleString()}</td>
            <td className="task">{row.task ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
