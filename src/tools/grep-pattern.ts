import { RE2JS } from 're2js';
import { ToolError } from './tool.js';

/**
 * grep's pattern, from the model's text to what the matcher thread compiles (RE2 syntax, via
 * RE2JS). The model writes JavaScript-flavoured regular expressions; most of that is RE2 too.
 * What RE2 cannot run in linear time (backreferences, lookahead) is refused here with an error
 * that names the feature, so the model can rewrite the pattern: there is no fallback to a
 * backtracking engine. `\uXXXX` and `\u{X}` escapes, which RE2 spells `\x{X}`, are translated.
 */

/** What the matcher thread compiles. */
export interface GrepPattern {
  source: string;
  /** RE2JS flags. */
  flags: number;
}

/** Why the matcher thread did not accept a pattern (see grep-match-worker.js). */
export type CompileFailure =
  { kind: 'invalid'; message: string } | { kind: 'too-large'; size: number };

const SYNTAX = 'grep uses RE2 syntax, which runs in linear time';

export function prepareGrepPattern(
  pattern: string,
  options: { fixed: boolean; ignoreCase: boolean },
): GrepPattern {
  // Lookbehind is allowed: RE2JS runs it in linear time (captureless, on its NFA).
  const flags = RE2JS.LOOKBEHINDS | (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  if (options.fixed) return { source: RE2JS.quote(pattern), flags };
  return { source: translate(pattern), flags };
}

/** The ToolError for a pattern the matcher thread refused to compile. */
export function compileFailureError(
  pattern: string,
  failure: CompileFailure,
  maxProgramSize: number,
): ToolError {
  if (failure.kind === 'too-large') {
    return new ToolError(
      `regular expression of ${pattern.length} characters is too large: it compiles to ${failure.size} instructions, over grep's limit of ${maxProgramSize}; use a shorter pattern or smaller repeat counts`,
    );
  }
  const message = failure.message.replace(/^error parsing regexp: /, '');
  if (message.startsWith('invalid capture in lookbehind')) {
    return unsupported(
      pattern,
      'a capturing group inside a lookbehind is',
      'write (?:...) inside the lookbehind',
    );
  }
  const hint = message.startsWith('invalid escape sequence') ? ` (${SYNTAX})` : '';
  return new ToolError(
    `invalid regular expression '${pattern}': ${message}${hint}; set fixed_strings to search for literal text`,
  );
}

/**
 * The pattern with JavaScript-only escapes rewritten, or a ToolError naming the first feature
 * RE2 lacks. Walks escapes and character classes, so `[\1]` or `\(?=` are not mistaken.
 */
function translate(pattern: string): string {
  let out = '';
  let inClass = false;
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const rest = pattern.slice(index);
      const unicode = /^\\u(?:([0-9A-Fa-f]{4})|\{([0-9A-Fa-f]{1,6})\})/.exec(rest);
      if (unicode !== null) {
        out += `\\x{${unicode[1] ?? unicode[2]}}`;
        index += unicode[0].length;
        continue;
      }
      if (!inClass) refuseBackreference(pattern, rest);
      out += rest.slice(0, 2);
      index += 2;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
      // A `]` right after `[` or `[^` is a literal in RE2, not the end of the class.
      const literalClose = /^\[\^?\]/.exec(pattern.slice(index));
      if (literalClose !== null) {
        out += literalClose[0];
        index += literalClose[0].length;
        continue;
      }
    } else if (pattern.startsWith('(?=', index)) {
      throw unsupported(
        pattern,
        'lookahead ((?=...)) is',
        'match the following text as part of the pattern, or leave it out and read the lines',
      );
    } else if (pattern.startsWith('(?!', index)) {
      throw unsupported(
        pattern,
        'negative lookahead ((?!...)) is',
        'leave it out and read the lines, or match what may follow with a character class such as [^x]',
      );
    }
    out += char;
    index += 1;
  }
  return out;
}

/** `rest` starts at a backslash outside a character class. */
function refuseBackreference(pattern: string, rest: string): void {
  const reference = /^\\(?:[1-9][0-9]*|k<[^>]*>)/.exec(rest);
  if (reference === null) return;
  throw unsupported(
    pattern,
    `backreferences (${reference[0]}) are`,
    'match the repeated text itself, or search for the first part and read the lines',
  );
}

function unsupported(pattern: string, feature: string, hint: string): ToolError {
  return new ToolError(
    `unsupported regular expression '${pattern}': ${feature} not supported; ${SYNTAX}; ${hint}`,
  );
}
