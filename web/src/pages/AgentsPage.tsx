/**
 * `#/agents`: every loaded definition, grouped by level in the order the console always uses
 * (built-in, user, project, ecosystem), shadowed and read-only ones marked, and the workspace's
 * configuration problems on top, since they change what every agent resolves to.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { AGENT_LEVELS, listAgents, type AgentLevel, type AgentList } from '../api/agents';
import { ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import { LevelGroup } from './agents/LevelGroup';
import './agents/agents.css';

export function AgentsPage() {
  const { tokenGeneration } = useSettings();
  const [loaded, setLoaded] = useState<{
    generation: number;
    list?: AgentList;
    error?: unknown;
  } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    listAgents(controller.signal).then(
      (list) => setLoaded({ generation: tokenGeneration, list }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ generation: tokenGeneration, error });
      },
    );
    return () => controller.abort();
  }, [tokenGeneration]);

  const current = loaded?.generation === tokenGeneration ? loaded : null;
  return (
    <main className="page agents-page">
      <div className="toolbar">
        <h1>Agents</h1>
        <span className="spacer" />
        <Link className="button primary" to="/agents/new">
          New agent
        </Link>
      </div>
      {current === null ? <Loading what="agents" /> : null}
      <ErrorBanner error={current?.error} />
      {current?.list === undefined ? null : <Levels list={current.list} />}
    </main>
  );
}

function Levels({ list }: { list: AgentList }) {
  // A file that does not win its name is "shadowed by" the level of the file that does.
  const winners = new Map<string, AgentLevel>();
  for (const agent of list.agents) if (agent.effective) winners.set(agent.name, agent.level);
  const shadowedBy = new Map<string, AgentLevel>();
  for (const agent of list.agents) {
    const winner = winners.get(agent.name);
    if (!agent.effective && winner !== undefined) shadowedBy.set(agent.filePath, winner);
  }
  return (
    <>
      {(list.errors ?? []).length === 0 ? null : (
        <div role="alert" className="banner error">
          <p className="banner-title">The workspace configuration has problems:</p>
          <ul>
            {list.errors?.map((problem, index) => (
              <li key={index}>
                {problem.kind}: {problem.error}
              </li>
            ))}
          </ul>
        </div>
      )}
      {AGENT_LEVELS.map((level) => (
        <LevelGroup
          key={level}
          level={level}
          agents={list.agents.filter((agent) => agent.level === level)}
          shadowedBy={shadowedBy}
        />
      ))}
    </>
  );
}
