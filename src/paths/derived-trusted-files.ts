/**
 * Trusted files that no fixed list can name: the ones the protected definitions and the
 * configuration point at. A hook's command (`./scripts/check-call.sh`), an MCP server's
 * `command` and `args` (`node tools/server.mjs`) and a scripted model's script decide what runs
 * as surely as the definition that names them; if an agent could rewrite one, the next tool call,
 * server start or model turn would run the agent's own code. So each file they name is protected
 * like the definition itself, found again every time a delegation starts.
 *
 * What a named script reads in turn (a `source`d library, a module it imports) cannot be found
 * from the command; docs/policy.md says to keep such scripts in a protected folder.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { TrustedLocation } from './trusted-files.js';

/** The commands and scripts the definitions and the configuration name, as written. */
export interface NamedExecutables {
  /** Hook commands (`bash -c` in the workspace). */
  hookCommands: readonly string[];
  /** Stdio MCP servers (run in the workspace). */
  serverCommands: ReadonlyArray<{ command?: string | undefined; args: readonly string[] }>;
  /** Absolute paths of scripted models' scripts, existing or not (a missing one may be created). */
  modelScripts: readonly string[];
}

export function derivedTrustedLocations(
  workspace: string,
  named: NamedExecutables,
): TrustedLocation[] {
  const found = new Map<string, string>();
  const add = (file: string, role: string) => {
    if (!found.has(file)) found.set(file, role);
  };
  for (const command of named.hookCommands) {
    for (const file of filesNamedByCommand(command, workspace))
      add(file, `run by a hook: ${command}`);
  }
  for (const server of named.serverCommands) {
    const words = [server.command ?? '', ...server.args].filter((word) => word !== '');
    for (const file of filesNamedByWords(words, workspace)) {
      add(file, `run by an MCP server: ${words.join(' ')}`);
    }
  }
  for (const script of named.modelScripts) add(script, "a scripted model's script");
  return [...found].map(([file, role]) => ({ kind: 'script', path: file, role }));
}

/**
 * The files a shell command names, as absolute paths: every word that is a path (it has a `/`,
 * or it is a file in `cwd`, or it looks like a script's name). Words that name a folder are left out:
 * protecting `.` would protect the whole workspace.
 */
export function filesNamedByCommand(command: string, cwd: string): string[] {
  return filesNamedByWords(shellWords(command), cwd);
}

function filesNamedByWords(words: readonly string[], cwd: string): string[] {
  const files = new Set<string>();
  for (const raw of words) {
    const word = expandProjectDir(optionValue(raw), cwd);
    if (!looksLikeFile(word, cwd)) continue;
    const file = path.resolve(cwd, word);
    if (!isDirectory(file)) files.add(file);
  }
  return [...files];
}

/**
 * Splits a command into words the way a reader of it would: on blanks and shell operators
 * (`;`, `&&`, `|`, redirections, parentheses), with quotes removed. Not a shell parser: a word
 * it gets wrong can only protect a file more, never one less than it names plainly.
 */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  const flush = () => {
    if (current !== '') words.push(current);
    current = '';
  };
  for (const char of command) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (/[\s;&|<>()`]/.test(char)) {
      flush();
    } else {
      current += char;
    }
  }
  flush();
  return words;
}

/** `--config=./x.json` names `./x.json`; other options name nothing. */
function optionValue(word: string): string {
  if (!word.startsWith('-')) return word;
  const equals = word.indexOf('=');
  return equals === -1 ? '' : word.slice(equals + 1);
}

/** `$CLAUDE_PROJECT_DIR` (Claude Code's hooks use it) is the workspace; `~/` the home folder. */
function expandProjectDir(word: string, workspace: string): string {
  const expanded = word.replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, workspace);
  return expanded.startsWith('~/') ? path.join(homedir(), expanded.slice(2)) : expanded;
}

/** A script's name without a folder: `check.py`, `hook.mjs`, `notify.sh`. */
const SCRIPT_NAME = /^[\w.-]+\.[A-Za-z][A-Za-z0-9]{0,5}$/;

function looksLikeFile(word: string, cwd: string): boolean {
  if (word === '' || word.includes('$') || word.includes('://') || word.includes('\0')) {
    return false;
  }
  // `2>/dev/null` and the like: devices are not scripts.
  if (word.startsWith('/dev/')) return false;
  if (word.includes('/') || SCRIPT_NAME.test(word)) return true;
  return isFile(path.resolve(cwd, word));
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
