/**
 * The YAML tab: the whole definition as the Markdown file a save writes. Generated from the form
 * until the user types; from then on the text is theirs, checked as typed (the server's parser,
 * with line numbers), and it is what a save sends.
 */
import type { CheckDiagnostic } from '../../api/editor';

export function YamlTab({
  text,
  edited,
  diagnostics,
  checking,
  problem,
  onChange,
  onRegenerate,
}: {
  text: string;
  edited: boolean;
  /** About `text` (null while none is); lines only when the text itself was checked. */
  diagnostics: readonly CheckDiagnostic[] | null;
  checking: boolean;
  problem: string | null;
  onChange: (text: string) => void;
  onRegenerate: () => void;
}) {
  const sorted = [...(diagnostics ?? [])].sort(
    (a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER),
  );
  return (
    <div className="yaml-tab">
      {edited ? (
        <p className="banner info yaml-note">
          Edited as YAML: the form shows what it parses to, and this text is what Save sends. A
          change made in the form is written into its key here.{' '}
          <button type="button" className="link" onClick={onRegenerate}>
            Regenerate from the form
          </button>
        </p>
      ) : (
        <p className="hint">
          Made from the form. Type here to edit the definition as a file: the same parser and
          validation as files on disk.
        </p>
      )}
      <div className="yaml-columns">
        <div className="field yaml-text">
          <label htmlFor="agent-yaml">Agent file: YAML frontmatter, then the system prompt</label>
          <textarea
            id="agent-yaml"
            className="code"
            rows={28}
            spellCheck={false}
            value={text}
            aria-describedby="agent-yaml-diagnostics"
            onChange={(event) => onChange(event.target.value)}
          />
        </div>
        <section className="yaml-diagnostics" aria-labelledby="agent-yaml-diagnostics-title">
          <h3 id="agent-yaml-diagnostics-title">What the check says</h3>
          <div id="agent-yaml-diagnostics" aria-live="polite">
            {problem !== null ? (
              <p className="field-error">The check could not run: {problem}</p>
            ) : diagnostics === null || (checking && sorted.length === 0) ? (
              <p className="hint">Checking…</p>
            ) : sorted.length === 0 ? (
              <p className="hint">No problems.</p>
            ) : (
              <ul className="problems">
                {sorted.map((diagnostic, index) => (
                  <li key={index} className={`problem ${diagnostic.severity}`}>
                    <span className="problem-where">
                      {diagnostic.line === undefined ? '' : `Line ${diagnostic.line}`}
                      {diagnostic.path === '' ? '' : ` ${diagnostic.path}`}
                    </span>{' '}
                    {diagnostic.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </section>
      </div>
    </div>
  );
}
