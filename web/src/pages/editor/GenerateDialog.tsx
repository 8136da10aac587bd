/**
 * "Generate with AI…": the user says what the agent should do; two plain-text generations on
 * the workspace's default model (POST /workspace/generate, kind description and systemPrompt)
 * stream into two drafts inside the dialog. Cancel leaves the form as it was; "Use these"
 * copies both drafts into it. The name and the policy stay the user's.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { messageOf } from '../../api/client';
import { streamGeneration } from '../../api/editor';

type Kind = 'description' | 'systemPrompt';
type Phase = 'idle' | 'generating' | 'done' | 'failed';

export function GenerateDialog({
  defaultModel,
  onUse,
  onClose,
}: {
  /** What `default` resolves to now, from GET /workspace/models; null while unknown. */
  defaultModel: string | null;
  onUse: (drafts: Record<Kind, string>) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [instruction, setInstruction] = useState('');
  const generation = useGeneration();
  const { drafts, phase, problem, model } = generation;

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const close = () => {
    generation.abort();
    onClose();
  };

  const generating = phase === 'generating';
  const ready =
    !generating && (drafts.description.trim() !== '' || drafts.systemPrompt.trim() !== '');
  return (
    <dialog
      ref={dialog}
      className="generate-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-source`}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <h2 id={`${id}-title`}>Generate the description and system prompt</h2>
      <p className="hint" id={`${id}-source`}>
        The text comes from the workspace’s default model
        {model !== null ? `: ${model}` : defaultModel !== null ? ` (now ${defaultModel})` : ''}.
        Review both drafts before using them; the name, tools and policy stay yours.
      </p>
      <div className="field">
        <label htmlFor={`${id}-instruction`}>What should the agent do?</label>
        <textarea
          id={`${id}-instruction`}
          rows={3}
          value={instruction}
          onChange={(event) => setInstruction(event.target.value)}
        />
      </div>
      <div className="dialog-actions start">
        <button
          type="button"
          disabled={generating || instruction.trim() === ''}
          onClick={() => void generation.generate(instruction)}
        >
          {phase === 'idle' ? 'Generate' : 'Generate again'}
        </button>
        <span role="status" className="hint">
          {generating ? 'Generating…' : phase === 'done' ? 'Both drafts are ready.' : ''}
        </span>
      </div>
      {problem === null ? null : (
        <p role="alert" className="banner error">
          The generation failed: {problem}
        </p>
      )}
      <DraftFields id={id} generation={generation} />
      <div className="dialog-actions">
        <button type="button" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={!ready}
          onClick={() => {
            onUse(drafts);
            onClose();
          }}
        >
          Use these
        </button>
      </div>
    </dialog>
  );
}

/**
 * The two drafts and how their generation goes: both stream at once, a new one aborts the last,
 * and one that fails stops the other. Leaving the dialog aborts what still runs.
 */
function useGeneration() {
  const running = useRef<AbortController | null>(null);
  const [drafts, setDrafts] = useState<Record<Kind, string>>({ description: '', systemPrompt: '' });
  const [phase, setPhase] = useState<Phase>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const [model, setModel] = useState<string | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const abort = () => running.current?.abort();

  const generate = async (instruction: string) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setDrafts({ description: '', systemPrompt: '' });
    setProblem(null);
    setPhase('generating');
    const one = (kind: Kind) =>
      streamGeneration(
        { prompt: instruction, kind },
        (event) => {
          if (controller.signal.aborted) return;
          if (event.type === 'started' || event.type === 'done') setModel(event.model);
          if (event.type === 'delta') {
            setDrafts((now) => ({ ...now, [kind]: now[kind] + event.text }));
          }
          if (event.type === 'error') throw new Error(event.message);
        },
        controller.signal,
      );
    try {
      await Promise.all([one('description'), one('systemPrompt')]);
      if (!controller.signal.aborted) setPhase('done');
    } catch (error) {
      if (controller.signal.aborted) return;
      controller.abort();
      setProblem(messageOf(error));
      setPhase('failed');
    }
  };

  return { drafts, setDrafts, phase, problem, model, generate, abort };
}

/** The drafts, editable before they are used. */
function DraftFields({
  id,
  generation,
}: {
  id: string;
  generation: ReturnType<typeof useGeneration>;
}) {
  const { drafts, setDrafts, phase } = generation;
  const generating = phase === 'generating';
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description draft</label>
        <textarea
          id={`${id}-description`}
          rows={3}
          value={drafts.description}
          aria-busy={generating}
          onChange={(event) => setDrafts((now) => ({ ...now, description: event.target.value }))}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-prompt`}>System prompt draft</label>
        <textarea
          id={`${id}-prompt`}
          rows={8}
          className="code"
          value={drafts.systemPrompt}
          aria-busy={generating}
          onChange={(event) => setDrafts((now) => ({ ...now, systemPrompt: event.target.value }))}
        />
      </div>
    </>
  );
}
