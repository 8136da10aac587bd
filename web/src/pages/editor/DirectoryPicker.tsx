/**
 * The knowledge source picker: browse the workspace's folders (GET /workspace/directories),
 * then "Use this folder", which collapses the choice into a workspace-relative glob
 * (`docs/**\/*`) named after the folder. Typing `~/`, `/etc` or `../x` is refused with the API's
 * own message: a knowledge glob outside the workspace would match nothing.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { messageOf } from '../../api/client';
import { listDirectories, type DirectoryList } from '../../api/editor';

export interface PickedSource {
  name: string;
  glob: string;
}

/** The server's rule (src/api/workspace/directories.ts knowledgeGlobOf), for a path not listed. */
export function globOfFolder(path: string): string | null {
  if (path === '') return '**/*';
  if (path.includes('\\')) return null;
  let glob = `${path.replace(/[*?[\]{}()+@]/g, (char) => `[${char}]`)}/**/*`;
  if (/^(!|~|[A-Za-z]:)/.test(glob)) glob = `./${glob}`;
  return glob;
}

/** A path the API answered must be workspace-relative; anything else is not used. */
function outsideWorkspace(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.split('/').includes('..');
}

export function DirectoryPicker({
  onPick,
  onCancel,
}: {
  onPick: (source: PickedSource) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const { listing, globs, problem, loading, browse } = useDirectories();

  const path = listing?.path ?? '';
  const glob = path in globs ? (globs[path] ?? null) : globOfFolder(path);
  const segments = path === '' ? [] : path.split('/');
  const name = segments.at(-1) ?? 'workspace';

  return (
    <dialog
      ref={dialog}
      className="directory-picker"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>Choose a folder for the knowledge source</h2>
      <Breadcrumbs segments={segments} browse={browse} />

      {problem === null ? null : (
        <p role="alert" className="banner error">
          {problem}
        </p>
      )}

      <FolderList listing={listing} loading={loading} browse={browse} />

      <GoTo id={id} browse={browse} />

      <p className="hint" id={`${id}-glob`}>
        {glob === null
          ? 'This folder’s name cannot be written as a knowledge glob.'
          : `The source will be every file below ${path === '' ? 'the workspace' : path}: ${glob}`}
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          aria-describedby={`${id}-glob`}
          disabled={listing === null || glob === null || loading}
          onClick={() => glob !== null && onPick({ name, glob })}
        >
          Use this folder
        </button>
      </div>
    </dialog>
  );
}

/**
 * The folder shown and the globs the API gave for every folder listed so far; `browse` moves
 * to another. The workspace's root is read once, when the picker appears.
 */
function useDirectories() {
  const [listing, setListing] = useState<DirectoryList | null>(null);
  const [globs, setGlobs] = useState<Record<string, string | null>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  const load = (path: string) => {
    listDirectories(path)
      .then((answer) => {
        if (outsideWorkspace(answer.path)) {
          setProblem(`The API answered a path outside the workspace ('${answer.path}'): not used.`);
          return;
        }
        setListing(answer);
        setProblem(null);
        setGlobs((known) => ({
          ...known,
          ...Object.fromEntries(answer.directories.map((entry) => [entry.path, entry.glob])),
        }));
      })
      .catch((error: unknown) => setProblem(messageOf(error)))
      .finally(() => setLoading(false));
  };
  const browse = (path: string) => {
    setLoading(true);
    load(path);
  };

  useEffect(() => {
    load(''); // once, when the picker appears
  }, []);

  return { listing, globs, problem, loading, browse };
}

/** The path from the workspace down to the folder shown; each folder above it a link. */
function Breadcrumbs({ segments, browse }: { segments: string[]; browse: (path: string) => void }) {
  return (
    <nav aria-label="Folder path" className="breadcrumbs">
      <ol>
        <li>
          {segments.length === 0 ? (
            <span aria-current="location">Workspace</span>
          ) : (
            <button type="button" className="link" onClick={() => browse('')}>
              Workspace
            </button>
          )}
        </li>
        {segments.map((segment, index) => {
          const to = segments.slice(0, index + 1).join('/');
          return (
            <li key={to}>
              {index === segments.length - 1 ? (
                <span aria-current="location">{segment}</span>
              ) : (
                <button type="button" className="link" onClick={() => browse(to)}>
                  {segment}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

function FolderList({
  listing,
  loading,
  browse,
}: {
  listing: DirectoryList | null;
  loading: boolean;
  browse: (path: string) => void;
}) {
  return (
    <div className="folder-list" aria-busy={loading}>
      {listing !== null && listing.parent !== null ? (
        <button type="button" onClick={() => browse(listing.parent ?? '')}>
          ↑ Parent folder
        </button>
      ) : null}
      {listing === null ? null : listing.directories.length === 0 ? (
        <p className="hint">No subfolders here.</p>
      ) : (
        <ul aria-label="Subfolders">
          {listing.directories.map((entry) => (
            <li key={entry.path}>
              <button type="button" className="folder" onClick={() => browse(entry.path)}>
                <span aria-hidden="true">📁</span> {entry.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {listing?.truncated === true ? (
        <p className="hint">More folders than are listed: type a path below to reach one.</p>
      ) : null}
    </div>
  );
}

/** A folder reached by typing its path, for one the listing leaves out. */
function GoTo({ id, browse }: { id: string; browse: (path: string) => void }) {
  const [typed, setTyped] = useState('');
  return (
    <form
      className="go-to"
      onSubmit={(event) => {
        event.preventDefault();
        browse(
          typed
            .trim()
            .replace(/^\.\/+/, '')
            .replace(/\/+$/, ''),
        );
      }}
    >
      <label htmlFor={`${id}-path`}>Go to a folder (relative to the workspace)</label>
      <div className="add-row">
        <input
          id={`${id}-path`}
          type="text"
          value={typed}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit">Go</button>
      </div>
    </form>
  );
}
