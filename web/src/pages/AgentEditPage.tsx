/**
 * The agent create and edit page (`#/agents/new`, `#/agents/:name/edit?level=`): a full page,
 * not a dialog, with a back action, a scrolling content area and a footer bar (Cancel, Save)
 * that stays on screen. Two tabs edit the same agent: the form, and the whole file as YAML.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { agentRoute, getAgent } from '../api/agents';
import type { WritableLevel } from '../api/editor';
import type { AgentDetail } from '../api/types';
import { ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import { AgentEditor } from './editor/AgentEditor';
import { emptyForm, fieldsOf, formOf } from './editor/form-model';

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; agent: AgentDetail }
  | { state: 'failed'; error: unknown };

export function AgentEditPage({ mode }: { mode: 'create' | 'edit' }) {
  const { name = '' } = useParams();
  const [search] = useSearchParams();
  const level = search.get('level');
  if (mode === 'create') {
    const start: WritableLevel = level === 'user' ? 'user' : 'project';
    return <CreatePage level={start} />;
  }
  return <EditPage key={`${name}?${level ?? ''}`} name={name} level={level} />;
}

function CreatePage({ level }: { level: WritableLevel }) {
  const navigate = useNavigate();
  return (
    <AgentEditor
      mode="create"
      title="New agent"
      back={{ to: '/agents', label: 'Agents' }}
      initial={emptyForm(level)}
      original={null}
      onSaved={(agent) =>
        navigate(
          agent === null
            ? '/agents'
            : `/agents/${encodeURIComponent(agent.name)}?level=${agent.level}`,
        )
      }
    />
  );
}

function EditPage({ name, level }: { name: string; level: string | null }) {
  const navigate = useNavigate();
  const { tokenGeneration } = useSettings();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getAgent(name, level ?? undefined, controller.signal)
      .then((agent) => setLoaded({ state: 'ready', agent }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed', error });
      });
    return () => controller.abort();
  }, [name, level, tokenGeneration]);

  const viewPath = agentRoute(name, level ?? undefined);
  if (loaded.state !== 'ready') {
    return (
      <main className="page">
        <p>
          <Link to={viewPath}>← {name}</Link>
        </p>
        <h1>Edit {name}</h1>
        {loaded.state === 'loading' ? (
          <Loading what="the agent" />
        ) : (
          <ErrorBanner error={loaded.error} />
        )}
      </main>
    );
  }
  const { agent } = loaded;
  const agentView = `/agents/${encodeURIComponent(agent.name)}?level=${agent.level}`;
  if (agent.readOnly || (agent.level !== 'project' && agent.level !== 'user')) {
    return (
      <main className="page">
        <p>
          <Link to={agentView}>← {agent.name}</Link>
        </p>
        <h1>Edit {agent.name}</h1>
        <p className="banner warning" role="status">
          This agent cannot be edited here: {agent.readOnlyReason ?? `it is a ${agent.level} agent`}
          .
        </p>
      </main>
    );
  }
  const initial = formOf(agent, agent.level);
  return (
    <AgentEditor
      mode="edit"
      title={`Edit ${agent.name}`}
      back={{ to: agentView, label: agent.name }}
      initial={initial}
      original={fieldsOf(initial)}
      onSaved={() => navigate(agentView)}
    />
  );
}
