/**
 * Which of a check's diagnostics the editor shows. A taken name only matters to a new agent (a
 * saved one is its own name); on a new form, a field's problems wait until it was changed or a
 * first Save was tried: an empty form is not a list of errors.
 */
import type { CheckDiagnostic } from '../../../api/editor';
import { locate } from '../diagnostics';

export interface ShownWhen {
  mode: 'create' | 'edit';
  /** True once the user typed in the YAML tab. */
  typedYaml: boolean;
  /** True once Save was pressed. */
  attempted: boolean;
  /** The form fields changed so far. */
  touched: ReadonlySet<string>;
}

export function shownDiagnostics(
  all: readonly CheckDiagnostic[],
  { mode, typedYaml, attempted, touched }: ShownWhen,
): CheckDiagnostic[] {
  const out: CheckDiagnostic[] = [];
  for (const diagnostic of all) {
    if (diagnostic.code === 'name.exists') {
      if (mode === 'create') {
        out.push({
          ...diagnostic,
          severity: 'error',
          message: `${diagnostic.message.split(':')[0]}: choose another name`,
        });
      }
      continue;
    }
    const field = locate(diagnostic.path, null).field;
    const early = mode === 'create' && !typedYaml && !attempted && !touched.has(field ?? '');
    if (!early) out.push(diagnostic);
  }
  return out;
}
