/**
 * A revision of an agent's file against the current file at the same level, as a line diff
 * (line-diff.ts): lines only in the revision marked `−`, lines only in the current file `+`,
 * with their line numbers, so restoring it means: the `−` lines come back, the `+` lines go.
 * The marks and words say it, not only the colours.
 */
import { useEffect, useId, useState } from 'react';
import { revisionText, type Revision, type RevisionText } from '../../api/agents';
import { ApiError } from '../../api/client';
import { ErrorBanner, Loading } from '../../components/Feedback';
import { diffHunks, diffLines, type DiffLine } from './line-diff';

export function RevisionDiff({
  name,
  revision,
  when,
  onRestore,
  onClose,
}: {
  name: string;
  revision: Revision;
  /** The revision's time as the list shows it. */
  when: string;
  onRestore: () => void;
  onClose: () => void;
}) {
  const headingId = useId();
  const [loaded, setLoaded] = useState<{ id: string; text?: RevisionText; error?: unknown } | null>(
    null,
  );
  useEffect(() => {
    const controller = new AbortController();
    revisionText(name, revision.id, controller.signal).then(
      (text) => setLoaded({ id: revision.id, text }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ id: revision.id, error });
      },
    );
    return () => controller.abort();
  }, [name, revision.id]);
  const current = loaded?.id === revision.id ? loaded : null;
  // A server from before the route answers its catch-all 404 (`no route GET ...`).
  const missingRoute =
    current?.error instanceof ApiError &&
    (current.error.status === 405 ||
      (current.error.status === 404 && /^no route /.test(current.error.body.message ?? '')));

  return (
    <section className="revision-diff panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Changes since the version replaced at {when}</h3>
      {current === null ? <Loading what="the revision" /> : null}
      {missingRoute ? (
        <p className="banner warning">This server cannot show a revision&apos;s text.</p>
      ) : (
        <ErrorBanner error={current?.error} />
      )}
      {current?.text === undefined ? null : <DiffBody text={current.text} />}
      <div className="toolbar">
        <button type="button" className="primary" onClick={onRestore}>
          Restore this version
        </button>
        <button type="button" onClick={onClose}>
          Close the comparison
        </button>
      </div>
    </section>
  );
}

function DiffBody({ text }: { text: RevisionText }) {
  if (text.current === null) {
    return (
      <p className="empty">The current file at this level is gone: a restore writes it again.</p>
    );
  }
  const lines = diffLines(text.content, text.current);
  if (lines === null) return <p className="empty">These files are too large to compare here.</p>;
  const hunks = diffHunks(lines);
  if (hunks.length === 0)
    return <p className="empty">This version is the same as the current file.</p>;
  const removed = lines.filter((line) => line.kind === 'removed').length;
  const added = lines.filter((line) => line.kind === 'added').length;
  return (
    <>
      <p className="hint">
        <span aria-hidden="true">−</span> {removed} {removed === 1 ? 'line' : 'lines'} only in this
        version, <span aria-hidden="true">+</span> {added} {added === 1 ? 'line' : 'lines'} only in
        the current file.
      </p>
      <table className="diff">
        <caption className="visually-hidden">
          Line differences between this version and the current file
        </caption>
        <thead>
          <tr>
            <th scope="col">This version</th>
            <th scope="col">Current</th>
            <th scope="col">Line</th>
          </tr>
        </thead>
        {hunks.map((hunk, index) => (
          <tbody key={index}>
            {hunk.lines.map((line, lineIndex) => (
              <Row key={lineIndex} line={line} />
            ))}
          </tbody>
        ))}
      </table>
    </>
  );
}

function Row({ line }: { line: DiffLine }) {
  const mark = line.kind === 'removed' ? '−' : line.kind === 'added' ? '+' : ' ';
  const words =
    line.kind === 'removed'
      ? 'only in this version: '
      : line.kind === 'added'
        ? 'only in the current file: '
        : '';
  return (
    <tr className={`diff-${line.kind}`}>
      <td className="diff-number">{line.kind === 'added' ? '' : line.oldNumber}</td>
      <td className="diff-number">{line.kind === 'removed' ? '' : line.newNumber}</td>
      <td className="diff-text">
        <span aria-hidden="true" className="diff-mark">
          {mark}
        </span>
        {words === '' ? null : <span className="visually-hidden">{words}</span>}
        {line.text}
      </td>
    </tr>
  );
}
