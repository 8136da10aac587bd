/**
 * What the activity side found in one `bash` call's command (src/tools/shell-analysis.ts), as
 * plain data the workflow's pure pattern matcher (src/policy/tool-patterns.ts) can judge.
 *
 * `commands` is every simple command the parser found, as its literal argv (quotes removed).
 * `refused` lists what cannot be judged or is never covered by a pattern: a parse error, a
 * command or process substitution, a redirection to a file, a subshell, a function definition,
 * backgrounding, an environment assignment, a variable or glob expansion... When it is not
 * empty the call is refused whatever `commands` holds: nothing is guessed.
 */
export interface CommandAnalysis {
  commands: string[][];
  refused: string[];
}
