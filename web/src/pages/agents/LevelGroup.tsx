/** One level's agents on the list page: a headed section with a table, or a line saying none. */
import { useId } from 'react';
import { Link } from 'react-router';
import { agentRoute, type AgentLevel, type AgentSummary } from '../../api/agents';
import { Empty } from '../../components/Feedback';
import { DiagnosticCount } from './DiagnosticCount';
import { LEVEL_HINTS, LEVEL_LABELS } from './levels';

/** More than this many tool specs read as a list nobody scans in a table cell. */
const TOOLS_SHOWN = 5;

export function toolsSummary(agent: Pick<AgentSummary, 'tools' | 'disallowedTools'>): string {
  // No `tools` (or `[]`) means every tool the caller's roles permit, not none.
  const shown = agent.tools.slice(0, TOOLS_SHOWN).join(', ');
  const more = agent.tools.length > TOOLS_SHOWN ? ` +${agent.tools.length - TOOLS_SHOWN} more` : '';
  const allowed = agent.tools.length === 0 ? 'all tools' : `${shown}${more}`;
  const denied =
    agent.disallowedTools.length === 0 ? '' : `; not ${agent.disallowedTools.join(', ')}`;
  return `${allowed}${denied}`;
}

export function LevelGroup({
  level,
  agents,
  shadowedBy,
}: {
  level: AgentLevel;
  agents: AgentSummary[];
  /** For an agent another file wins over: the winner's level. Keyed by file path. */
  shadowedBy: ReadonlyMap<string, AgentLevel>;
}) {
  const headingId = useId();
  const label = LEVEL_LABELS[level];
  return (
    <section className="level-group" aria-labelledby={headingId}>
      <h2 id={headingId}>{label}</h2>
      <p className="hint">{LEVEL_HINTS[level]}</p>
      {agents.length === 0 ? (
        <Empty>No {label.toLowerCase()} agents.</Empty>
      ) : (
        <table className="list" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Model</th>
              <th scope="col">Tools</th>
              <th scope="col">Diagnostics</th>
            </tr>
          </thead>
          <tbody>
            {agents.map((agent) => (
              <tr key={agent.filePath}>
                <td>
                  <Link to={agentRoute(agent.name, agent.level)}>{agent.name}</Link>
                  <Badges agent={agent} shadowedBy={shadowedBy.get(agent.filePath)} />
                </td>
                <td>{agent.description}</td>
                <td>
                  <code>{agent.model}</code>
                </td>
                <td>{toolsSummary(agent)}</td>
                <td>
                  <DiagnosticCount count={agent.diagnosticCount} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Badges({ agent, shadowedBy }: { agent: AgentSummary; shadowedBy?: AgentLevel }) {
  if (!agent.readOnly && agent.effective) return null;
  return (
    <span className="badges">
      {agent.readOnly ? <span className="badge">read-only</span> : null}
      {agent.effective ? null : (
        <span className="badge shadowed">
          {shadowedBy === undefined
            ? 'not used'
            : `shadowed by ${LEVEL_LABELS[shadowedBy].toLowerCase()}`}
        </span>
      )}
    </span>
  );
}
