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
import { useCatalogs, type Catalogs } from './use-catalogs';
import { UNRESOLVED_REFUSAL } from './state/save-agent';
import type { SaveState } from './state/use-save';
import { useEditor } from './state/use-editor';
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
  const { tokenGeneration } = useSettings();
  const catalogs = useCatalogs(tokenGeneration);
  const editor = useEditor({ mode, initial, original, onSaved });
  const [tab, setTab] = useState<Tab>('form');
  const { source, check } = editor;

  return (
    <main className="agent-editor" aria-labelledby="agent-editor-title">
      <header className="editor-header">
        <Link className="back" to={back.to}>
          ← {back.label}
        </Link>
        <h1 id="agent-editor-title">{title}</h1>
        <EditorTabs tab={tab} onTab={setTab} />
      </header>

      <div className="editor-scroll">
        <FormPanel mode={mode} editor={editor} catalogs={catalogs} hidden={tab !== 'form'} />
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

      <EditorFooter editor={editor} backTo={back.to} />
    </main>
  );
}

type Editor = ReturnType<typeof useEditor>;

/** The tab list: a click or the arrow, Home and End keys choose a tab and focus it. */
function EditorTabs({ tab, onTab }: { tab: Tab; onTab: (tab: Tab) => void }) {
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ form: null, yaml: null });

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
    onTab(target);
    tabRefs.current[target]?.focus();
  };

  return (
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
          onClick={() => onTab(entry.tab)}
          onKeyDown={onTabKey}
        >
          {entry.label}
        </button>
      ))}
    </div>
  );
}

/** The form tab: what the YAML (once typed) means for it, then the sections in two columns. */
function FormPanel({
  mode,
  editor,
  catalogs,
  hidden,
}: {
  mode: 'create' | 'edit';
  editor: Editor;
  catalogs: Catalogs;
  hidden: boolean;
}) {
  const { form, update, problems, save, source, sourceReadable } = editor;
  const disabled = !sourceReadable || save.kind === 'saving';
  const defaultModel =
    catalogs.models.state === 'ready' ? catalogs.models.value.default.resolvesTo : null;
  const sectionProps = { form, update, problems, disabled };
  return (
    <div
      role="tabpanel"
      id="agent-panel-form"
      aria-labelledby="agent-tab-form"
      hidden={hidden}
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
  );
}

/** What the footer says: the save under way, why it was refused or failed, or what blocks it. */
function footerMessage(save: SaveState, unresolved: boolean, sourceReadable: boolean): string {
  if (save.kind === 'saving') return 'Saving…';
  if (save.kind === 'refused' || save.kind === 'failed') return save.message;
  if (unresolved) return UNRESOLVED_REFUSAL;
  return sourceReadable ? '' : 'The YAML cannot be read: fix it in the YAML tab.';
}

function EditorFooter({ editor, backTo }: { editor: Editor; backTo: string }) {
  const navigate = useNavigate();
  const { save, unresolved, sourceReadable } = editor;
  const isProblem = save.kind === 'refused' || save.kind === 'failed' || unresolved;
  return (
    <footer className="editor-footer">
      <p role="status" className={isProblem ? 'footer-status problem' : 'footer-status'}>
        {footerMessage(save, unresolved, sourceReadable)}
      </p>
      <button type="button" onClick={() => navigate(backTo)}>
        Cancel
      </button>
      <button
        type="button"
        className="primary"
        disabled={save.kind === 'saving' || unresolved || !sourceReadable}
        onClick={() => void editor.submit()}
      >
        Save
      </button>
    </footer>
  );
}
