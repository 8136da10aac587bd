/**
 * `#/agents/:name?level=`: one definition as it is on disk, every capability dimension spelled
 * out (empty ones too), its prompt and diagnostics; editing, deleting and revisions for a
 * writable one; copying and delegating for any.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  AGENT_LEVELS,
  agentEditRoute,
  agentRoute,
  deleteAgent,
  getAgent,
  type AgentDetail,
  type AgentLevel,
} from '../api/agents';
import { ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import { CapabilityList } from './agents/CapabilityList';
import { ConfirmDialog } from './agents/ConfirmDialog';
import { CopyForm } from './agents/CopyForm';
import { DelegateForm } from './agents/DelegateForm';
import { DiagnosticsList } from './agents/DiagnosticsList';
import { LEVEL_LABELS } from './agents/levels';
import { RevisionsPanel } from './agents/RevisionsPanel';
import './agents/agents.css';

export function AgentViewPage() {
  const { name = '' } = useParams();
  const [search] = useSearchParams();
  const levelParam = search.get('level');
  const level = AGENT_LEVELS.find((known) => known === levelParam);
  const { tokenGeneration } = useSettings();
  const ident = `${name}\u0000${level ?? ''}\u0000${tokenGeneration}`;
  const [loaded, setLoaded] = useState<{
    ident: string;
    agent?: AgentDetail;
    error?: unknown;
  } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getAgent(name, level, controller.signal).then(
      (agent) => setLoaded({ ident, agent }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ ident, error });
      },
    );
    return () => controller.abort();
  }, [ident, name, level]);

  const current = loaded?.ident === ident ? loaded : null;
  return (
    <main className="page agent-view">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/agents">Agents</Link> <span aria-hidden="true">/</span> {name}
      </nav>
      {current === null ? <Loading what={`agent ${name}`} /> : null}
      <ErrorBanner error={current?.error} />
      {current?.agent === undefined ? null : (
        <AgentView agent={current.agent} onChanged={(agent) => setLoaded({ ident, agent })} />
      )}
    </main>
  );
}

function AgentView({
  agent,
  onChanged,
}: {
  agent: AgentDetail;
  onChanged: (agent: AgentDetail) => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A new agent on the page (after a copy, say) starts at its top, not where the form was.
  useEffect(() => heading.current?.focus(), [agent.filePath]);
  return (
    <>
      <header className="agent-header">
        <h1 ref={heading} tabIndex={-1}>
          {agent.name}
        </h1>
        <p className="meta">
          <span className="badge">{LEVEL_LABELS[agent.level]}</span> <code>{agent.filePath}</code>
        </p>
        <p className="description">{agent.description}</p>
        {agent.readOnly ? (
          <p className="banner info">
            Read-only — {agent.readOnlyReason ?? 'this level cannot be changed through deputy'}.
          </p>
        ) : null}
        {agent.effective ? null : (
          <p className="banner warning">
            Not in use: another definition named {agent.name} wins, and a delegation of {agent.name}{' '}
            runs that one. <Link to={agentRoute(agent.name)}>See the one in use</Link>.
          </p>
        )}
        {agent.readOnly ? null : <WriteActions agent={agent} />}
      </header>
      <div className="agent-columns">
        <div className="agent-main">
          <Section title="Capabilities">
            <CapabilityList agent={agent} />
          </Section>
          <Section title="System prompt">
            <pre className="prompt" tabIndex={0} role="region" aria-label="System prompt text">
              {agent.systemPrompt === '' ? '(empty)' : agent.systemPrompt}
            </pre>
          </Section>
          <Section title="Diagnostics">
            <DiagnosticsList diagnostics={agent.diagnostics} />
          </Section>
          {agent.readOnly ? null : (
            <Section title="Revisions">
              <RevisionsPanel
                name={agent.name}
                level={agent.level}
                contentHash={agent.contentHash}
                onRestored={onChanged}
              />
            </Section>
          )}
        </div>
        <aside className="agent-side" aria-label="Actions">
          <Section title="Delegate a task">
            <DelegateForm key={agent.name} agent={agent.name} />
          </Section>
          <Section title="Copy">
            <CopyForm key={agent.filePath} agent={agent} />
          </Section>
        </aside>
      </div>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="agent-section">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function WriteActions({ agent }: { agent: AgentDetail }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const remove = () => {
    setBusy(true);
    setProblem(null);
    deleteAgent(agent.name, agent.level).then(
      () => navigate('/agents'),
      (error: unknown) => {
        setBusy(false);
        setProblem(error);
      },
    );
  };
  return (
    <div className="toolbar">
      <Link className="button primary" to={agentEditRoute(agent.name, agent.level)}>
        Edit
      </Link>
      <button type="button" className="danger" onClick={() => setConfirming(true)}>
        Delete
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${agent.name}?`}
        confirmLabel="Delete"
        danger
        busy={busy}
        error={problem}
        onConfirm={remove}
        onCancel={() => {
          setConfirming(false);
          setProblem(null);
        }}
      >
        <p>
          This removes <code>{agent.filePath}</code> ({levelWord(agent.level)} level). Its last
          version is kept as a revision.
        </p>
      </ConfirmDialog>
    </div>
  );
}

function levelWord(level: AgentLevel): string {
  return LEVEL_LABELS[level].toLowerCase();
}
