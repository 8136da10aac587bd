/**
 * Knowledge globs are workspace-relative. Retrieval joins them to the workspace root,
 * so an absolute glob would silently match nothing and a `..` would reach outside: both are
 * refused up front, by resolution and again by `kb_search` itself.
 */

// `..` as a whole path segment, also inside brace/extglob alternatives like `{..,docs}`.
const PARENT_SEGMENT = /(^|[/{,(|])\.\.($|[/},)|])/;

/** Why `glob` may not be used as a knowledge glob, or null when it is acceptable. */
export function knowledgeGlobProblem(glob: string): string | null {
  if (glob.trim() === '') return 'it is empty';
  if (glob.includes('\0')) return 'it contains a NUL character';
  if (glob.includes('\\')) {
    return 'it contains a backslash (write paths with forward slashes)';
  }
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob) || glob.startsWith('~')) {
    return 'it is absolute; knowledge globs are relative to the workspace';
  }
  if (PARENT_SEGMENT.test(glob)) return "it climbs out of the workspace with '..'";
  return null;
}
