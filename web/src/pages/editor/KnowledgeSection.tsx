/**
 * Knowledge: sources as rows (a name, and the workspace-relative glob a folder picked in the
 * directory picker collapsed into). Knowledge needs `read`: when the tools cannot reach it the
 * section says so at once, from the server's own rule, before the check or a save says it too.
 */
import { useRef, useState } from 'react';
import type { SectionProps } from './BasicsSection';
import { toolsLackRead } from './diagnostics';
import { DirectoryPicker } from './DirectoryPicker';
import { knowledgeKey } from './form-model';
import { Problems, Section } from './parts';

export function KnowledgeSection({ form, update, problems, disabled }: SectionProps) {
  const [picking, setPicking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const closePicker = () => {
    setPicking(false);
    opener.current?.focus();
  };
  const sources = form.knowledge;
  const withoutRead = sources.length > 0 && toolsLackRead(form.tools);
  // The check and a refused save say it too, in their words; once read is reachable again
  // what they said is stale (the next check no longer says it), so it is not shown.
  const checked = (problems.fields.knowledge ?? []).filter(
    (problem) => withoutRead || !/\bread\b/.test(problem.message),
  );
  return (
    <Section title="Knowledge">
      <p className="hint">
        Documents the agent searches with kb_search, left on disk and never preloaded; it opens the
        files it finds with read.
      </p>
      {withoutRead ? (
        <p className="banner warning knowledge-without-read" role="status">
          Knowledge needs the read tool: the allowed tools do not include read (or FileSystem), so
          the agent would find path:line hits it cannot open. Add read to the allowed tools.
        </p>
      ) : null}
      {sources.length === 0 ? (
        <p className="hint">No knowledge sources.</p>
      ) : (
        <table className="list knowledge-rows">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Files</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sources.map((source, index) => {
              const rowProblems = problems.entries.knowledge?.get(knowledgeKey(source));
              return (
                <tr key={index}>
                  <td>
                    <input
                      type="text"
                      aria-label={`Name of the source ${source.glob}`}
                      value={source.name}
                      disabled={disabled}
                      onChange={(event) =>
                        update({
                          knowledge: sources.map((entry, at) =>
                            at === index ? { ...entry, name: event.target.value } : entry,
                          ),
                        })
                      }
                    />
                    <Problems id={`knowledge-${index}-problems`} problems={rowProblems} />
                  </td>
                  <td>
                    <code>{source.glob}</code>
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Remove ${source.name || source.glob}`}
                      disabled={disabled}
                      onClick={() => update({ knowledge: sources.filter((_, at) => at !== index) })}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Problems id="knowledge-problems" problems={checked} />
      <button ref={opener} type="button" disabled={disabled} onClick={() => setPicking(true)}>
        Add source
      </button>
      {picking ? (
        <DirectoryPicker
          onCancel={closePicker}
          onPick={(picked) => {
            closePicker();
            update({ knowledge: [...sources, picked] });
          }}
        />
      ) : null}
    </Section>
  );
}
