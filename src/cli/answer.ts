/** How most commands end: their answer printed, and exit code 0. */
import { EXIT, type ExitCode } from './exit-codes.js';
import { printJson, type Io } from './io.js';

/** Prints a command's answer (one JSON document with `--json`, else its lines); exit code 0. */
export function answer<T>(
  io: Io,
  json: boolean | undefined,
  value: T,
  lines: (value: T) => string[],
): ExitCode {
  if (json) printJson(io, value);
  else for (const line of lines(value)) io.out(line);
  return EXIT.ok;
}
