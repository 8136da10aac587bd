/** System prompt: the Markdown body, and the generation dialog launched below it. */
import { useRef, useState } from 'react';
import type { SectionProps } from './BasicsSection';
import { GenerateDialog } from './GenerateDialog';
import { Problems, Section, describedBy, hasError } from './parts';

export function PromptSection({
  form,
  update,
  problems,
  disabled,
  defaultModel,
}: SectionProps & { defaultModel: string | null }) {
  const [generating, setGenerating] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const p = problems.fields.systemPrompt;
  return (
    <Section title="System prompt">
      <div className="field">
        <label htmlFor="agent-system-prompt">System prompt</label>
        <textarea
          id="agent-system-prompt"
          className="code"
          rows={14}
          value={form.systemPrompt}
          disabled={disabled}
          aria-invalid={hasError(p)}
          aria-describedby={describedBy(
            'agent-system-prompt-hint',
            'agent-system-prompt-problems',
            p,
          )}
          onChange={(event) => update({ systemPrompt: event.target.value })}
        />
        <p className="hint" id="agent-system-prompt-hint">
          The instructions the agent reads before every task (Markdown). It comes last in the
          assembled prompt, after the capability catalog.
        </p>
        <Problems id="agent-system-prompt-problems" problems={p} />
      </div>
      <button ref={opener} type="button" disabled={disabled} onClick={() => setGenerating(true)}>
        Generate with AI…
      </button>
      {generating ? (
        <GenerateDialog
          defaultModel={defaultModel}
          onClose={() => {
            setGenerating(false);
            opener.current?.focus();
          }}
          onUse={(drafts) =>
            // A draft that came back empty (its generation failed) does not erase the field.
            update({
              ...(drafts.description.trim() === ''
                ? {}
                : { description: drafts.description.trim() }),
              ...(drafts.systemPrompt.trim() === '' ? {} : { systemPrompt: drafts.systemPrompt }),
            })
          }
        />
      ) : null}
    </Section>
  );
}
