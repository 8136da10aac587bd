/** Where command output goes; tests and `--json` mode swap or split it. */
export interface Io {
  /** Results: human text, or one JSON document with `--json`. */
  out(text: string): void;
  /** Progress, hints and errors. */
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}
