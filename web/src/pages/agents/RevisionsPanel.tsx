/**
 * Earlier versions of a writable agent, newest first, each restorable after a
 * confirmation. Every save keeps the bytes it replaced, so a revision's time is when that
 * version stopped being current. Only this level's revisions: a restore writes at the
 * revision's own level, and another level's file is another page.
 */
import { useEffect, useState } from 'react';
import {
  restoreRevision,
  revisions,
  type AgentDetail,
  type AgentLevel,
  type Revision,
} from '../../api/agents';
import { Empty, ErrorBanner, Loading } from '../../components/Feedback';
import { useSettings } from '../../components/Settings';
import { ConfirmDialog } from './ConfirmDialog';
import { RevisionDiff } from './RevisionDiff';

export function RevisionsPanel({
  name,
  level,
  contentHash,
  onRestored,
}: {
  name: string;
  level: AgentLevel;
  /** The current file's hash: a new one (a save, a restore) means a new revision to list. */
  contentHash: string;
  onRestored: (agent: AgentDetail) => void;
}) {
  const { tokenGeneration } = useSettings();
  const key = `${name}\u0000${contentHash}\u0000${tokenGeneration}`;
  const loaded = useRevisions(name, key);
  const [pending, setPending] = useState<Revision | null>(null);
  /** The revision compared with the current file, if any. */
  const [compared, setCompared] = useState<Revision | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);

  const restore = (revision: Revision) => {
    setBusy(true);
    setProblem(null);
    restoreRevision(name, revision.id).then(
      (answer) => {
        setBusy(false);
        setPending(null);
        setCompared(null);
        onRestored(answer.agent);
      },
      (error: unknown) => {
        setBusy(false);
        setProblem(error);
      },
    );
  };
  const askRestore = (revision: Revision) => {
    setProblem(null);
    setPending(revision);
  };

  // Keep the last list on screen while a new one loads (after a restore), so nothing jumps.
  const list = loaded?.list?.filter((revision) => revision.level === level);
  return (
    <>
      {loaded === null ? <Loading what="revisions" /> : null}
      <ErrorBanner error={loaded?.key === key ? loaded.error : undefined} />
      {list === undefined ? null : list.length === 0 ? (
        <Empty>No earlier versions yet: each save keeps the version it replaces here.</Empty>
      ) : (
        <RevisionTable
          list={list}
          contentHash={contentHash}
          compared={compared}
          onCompare={(revision) => setCompared(compared?.id === revision.id ? null : revision)}
          onRestore={askRestore}
        />
      )}
      {compared === null ||
      list?.some((revision) => revision.id === compared.id) !== true ? null : (
        <RevisionDiff
          name={name}
          revision={compared}
          when={when(compared.createdAt)}
          onRestore={() => askRestore(compared)}
          onClose={() => setCompared(null)}
        />
      )}
      <ConfirmDialog
        open={pending !== null}
        title="Restore this version?"
        confirmLabel="Restore"
        busy={busy}
        error={problem}
        onConfirm={() => {
          if (pending !== null) restore(pending);
        }}
        onCancel={() => setPending(null)}
      >
        <p>
          {name}&apos;s file becomes the version replaced at{' '}
          {pending === null ? '' : when(pending.createdAt)}. The current version is kept as a
          revision, so this can be undone the same way.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The agent's revisions, read again whenever `key` (name, current hash, token) changes. */
function useRevisions(name: string, key: string) {
  const [loaded, setLoaded] = useState<{ key: string; list?: Revision[]; error?: unknown } | null>(
    null,
  );
  useEffect(() => {
    const controller = new AbortController();
    revisions(name, controller.signal).then(
      (list) => setLoaded({ key, list }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ key, error });
      },
    );
    return () => controller.abort();
  }, [key, name]);
  return loaded;
}

function RevisionTable({
  list,
  contentHash,
  compared,
  onCompare,
  onRestore,
}: {
  list: Revision[];
  contentHash: string;
  compared: Revision | null;
  onCompare: (revision: Revision) => void;
  onRestore: (revision: Revision) => void;
}) {
  return (
    <table className="list revisions">
      <thead>
        <tr>
          <th scope="col">Replaced at</th>
          <th scope="col">Size</th>
          <th scope="col">Content</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {list.map((revision) => (
          <tr key={revision.id}>
            <td>
              <time dateTime={revision.createdAt}>{when(revision.createdAt)}</time>
            </td>
            <td>{revision.size} bytes</td>
            <td>
              <code>{revision.contentHash.slice(0, 12)}</code>
              {revision.contentHash === contentHash ? (
                <span className="muted"> (same as now)</span>
              ) : null}
            </td>
            <td>
              <div className="revision-actions">
                <button
                  type="button"
                  aria-label={`Compare the version replaced at ${when(revision.createdAt)} (${revision.contentHash.slice(0, 12)}) with the current file`}
                  aria-pressed={compared?.id === revision.id}
                  onClick={() => onCompare(revision)}
                >
                  Compare
                </button>
                <button
                  type="button"
                  aria-label={`Restore the version replaced at ${when(revision.createdAt)} (${revision.contentHash.slice(0, 12)})`}
                  onClick={() => onRestore(revision)}
                >
                  Restore
                </button>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Local time to the second: revisions of one editing session are often seconds apart. */
function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: 'medium',
  });
}
