/** What in a definition did not take effect, and why: one row per diagnostic. */
import type { AgentDetail } from '../../api/agents';
import { Empty } from '../../components/Feedback';

export function DiagnosticsList({ diagnostics }: { diagnostics: AgentDetail['diagnostics'] }) {
  if (diagnostics.length === 0)
    return <Empty>No diagnostics: every field loaded as written.</Empty>;
  return (
    <table className="list diagnostics">
      <thead>
        <tr>
          <th scope="col">Severity</th>
          <th scope="col">Field</th>
          <th scope="col">Message</th>
        </tr>
      </thead>
      <tbody>
        {diagnostics.map((diagnostic, index) => (
          <tr key={index}>
            <td>
              <span className={`chip ${diagnostic.severity === 'info' ? '' : diagnostic.severity}`}>
                {diagnostic.severity}
              </span>
            </td>
            <td>
              <code>{diagnostic.path === '' ? '(file)' : diagnostic.path}</code>
            </td>
            <td>
              {diagnostic.message} <span className="muted">[{diagnostic.code}]</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
