/** What the CLI prints for a delegation that runs on without it: `delegate --background`, fork, resume. */
import { printJson, type Io } from '../io.js';

/**
 * The new delegation's id on stdout (with `--json` the whole document instead), and on stderr how
 * to follow it.
 */
export function printStarted<T extends { delegationId: string }>(
  io: Io,
  json: boolean | undefined,
  document: T,
  note: string,
): void {
  if (json) printJson(io, document);
  else {
    io.out(document.delegationId);
    io.err(note);
  }
}
