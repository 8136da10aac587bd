/** Budgets of the file-system tools. Every cut says so in the result. */
const LIMITS = {
  /** `read` refuses larger files outright (bytes); grep/offset are the way into them. */
  readMaxBytes: 10 * 1024 * 1024,
  /** Lines `read` returns when no limit is given. */
  readDefaultLines: 2000,
  /** Characters of one line `read` shows. */
  readMaxLineChars: 2000,
  /** Characters of any single result. */
  resultMaxChars: 100_000,
  /** Paths `glob` lists. */
  globMaxResults: 1000,
  /** Matching lines `grep` returns. */
  grepMaxHits: 200,
  /** Characters of one matching line `grep` shows. */
  grepMaxLineChars: 400,
  /** Bytes `grep` reads per call; files beyond are reported as not searched. */
  grepMaxBytes: 32 * 1024 * 1024,
  /**
   * Milliseconds `grep` may spend matching (on its own thread, compiling included); files not
   * searched by then are reported. Under the 30 s heartbeat timeout of read tools.
   */
  grepMaxMatchMs: 20_000,
  /** Instructions a compiled `grep` pattern may have (RE2's program size). */
  grepMaxProgramSize: 100_000,
};
export type FileSystemLimits = Readonly<typeof LIMITS>;
export const FILE_SYSTEM_LIMITS: FileSystemLimits = Object.freeze(LIMITS);
