/**
 * The editor's frame: back action and tabs on top, the scrolling sections (two columns on a wide
 * screen), and the footer bar with Cancel and Save, which never leaves the screen.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AgentDetail } from '../../api/types';
import { useSettings } from '../../components/Settings';
import { BasicsSection } from './BasicsSection';
import { CapabilitiesSection } from './CapabilitiesSection';
import type { AgentForm, Fields } from './form-model';
import { KnowledgeSection } from './KnowledgeSection';
import { Problems } from './parts';
import { PromptSection } from './PromptSection';
import { ToolsSection } from './ToolsSection';
import { useCatalogs } from './use-catalogs';
import { UNRESOLVED_REFUSAL, useEditor } from './use-editor';
import { YamlTab } from './YamlTab';
import './editor.css';

type Tab = 'form' | 'yaml';
const TABS: ReadonlyArray<{ tab: Tab; label: string }> = [
  { tab: 'form', label: 'Form' },
  { tab: 'yaml', label: 'YAML' },
];

export function AgentEditor({
  mode,
  title,
  back,
  initial,
  original,
  onSaved,
}: {
  mode: 'create' | 'edit';
  title: string;
  back: { to: string; label: string };
  initial: AgentForm;
  original: Fields | null;
  onSaved: (agent: AgentDetail | null) => void;
}) {
  const navigate = useNavigate();
  const { tokenGeneration } = useSettings();
  const catalogs = useCatalogs(tokenGeneration);
  const editor = useEditor({ mode, initial, original, onSaved });
  const [tab, setTab] = useState<Tab>('form');
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ form: null, yaml: null });

  const { form, update, problems, save, source, sourceReadable, check } = editor;
  const disabled = !sourceReadable || save.kind === 'saving';
  const defaultModel =
    catalogs.models.state === 'ready' ? catalogs.models.value.default.resolvesTo : null;
  const sectionProps = { form, update, problems, disabled };

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((entry) => entry.tab === tab);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + TABS.length) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? TABS.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const target = TABS[next]!.tab;
    setTab(target);
    tabRefs.current[target]?.focus();
  };

  const footerMessage =
    save.kind === 'saving'
      ? 'Saving…'
      : save.kind === 'refused' || save.kind === 'failed'
        ? save.message
        : editor.unresolved
          ? UNRESOLVED_REFUSAL
          : !sourceReadable
            ? 'The YAML cannot be read: fix it in the YAML tab.'
            : '';
  const footerIsProblem = save.kind === 'refused' || save.kind === 'failed' || editor.unresolved;

  return (
    <main className="agent-editor" aria-labelledby="agent-editor-title">
      <header className="editor-header">
        <Link className="back" to={back.to}>
          ← {back.label}
        </Link>
        <h1 id="agent-editor-title">{title}</h1>
        <div className="tabs" role="tablist" aria-label="Edit the agent as">
          {TABS.map((entry) => (
            <button
              key={entry.tab}
              ref={(element) => {
                tabRefs.current[entry.tab] = element;
              }}
              type="button"
              role="tab"
              id={`agent-tab-${entry.tab}`}
              aria-controls={`agent-panel-${entry.tab}`}
              aria-selected={tab === entry.tab}
              tabIndex={tab === entry.tab ? 0 : -1}
              onClick={() => setTab(entry.tab)}
              onKeyDown={onTabKey}
            >
              {entry.label}
            </button>
          ))}
        </div>
      </header>

      <div className="editor-scroll">
        <div
          role="tabpanel"
          id="agent-panel-form"
          aria-labelledby="agent-tab-form"
          hidden={tab !== 'form'}
          tabIndex={0}
          className="editor-panel"
        >
          {source !== null ? (
            <p className="banner info">
              Edited as YAML: the form shows what it parses to.
              {sourceReadable
                ? ''
                : ' The YAML cannot be read right now, so the form keeps its last good reading and cannot be changed until the YAML is fixed.'}
            </p>
          ) : null}
          {problems.general.length > 0 ? (
            <div className="banner warning">
              <p className="banner-title">About the definition as a whole:</p>
              <Problems id="agent-general-problems" problems={problems.general} />
            </div>
          ) : null}
          <div className="editor-grid">
            <div className="editor-column">
              <BasicsSection {...sectionProps} mode={mode} models={catalogs.models} />
              <PromptSection {...sectionProps} defaultModel={defaultModel} />
            </div>
            <div className="editor-column">
              <ToolsSection {...sectionProps} catalog={catalogs.tools} mcp={catalogs.mcp} />
              <CapabilitiesSection {...sectionProps} skills={catalogs.skills} mcp={catalogs.mcp} />
              <KnowledgeSection {...sectionProps} />
            </div>
          </div>
        </div>
        <div
          role="tabpanel"
          id="agent-panel-yaml"
          aria-labelledby="agent-tab-yaml"
          hidden={tab !== 'yaml'}
          className="editor-panel"
        >
          <YamlTab
            text={editor.yamlText}
            edited={source !== null}
            diagnostics={
              check.latest === null
                ? null
                : source === null || 'source' in check.latest.request.input
                  ? check.latest.answer.diagnostics
                  : null
            }
            checking={check.pending}
            problem={check.problem}
            onChange={editor.typeYaml}
            onRegenerate={editor.regenerate}
          />
        </div>
      </div>

      <footer className="editor-footer">
        <p role="status" className={footerIsProblem ? 'footer-status problem' : 'footer-status'}>
          {footerMessage}
        </p>
        <button type="button" onClick={() => navigate(back.to)}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={save.kind === 'saving' || editor.unresolved || !sourceReadable}
          onClick={() => void editor.submit()}
        >
          Save
        </button>
      </footer>
    </main>
  );
}
