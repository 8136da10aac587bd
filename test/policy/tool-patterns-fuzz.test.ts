/**
 * The pattern matcher against generated shell commands: at least 100,000 commands
 * built from a grammar of words (plain, quoted, escaped, expanded, globbed), operators
 * (`; && || | & |&`, newlines), command and process substitutions, backticks, subshells,
 * groups, redirections and environment assignments. The generator knows what each command
 * would run; the property: when the matcher allows a command, every simple command that bash
 * would run matches a pattern, and nothing else (no substitution, file redirection, expansion,
 * background job...) is in it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/tools/shell-analysis.js';
import {
  commandMatches,
  commandPatternRefusal,
  parseCommandPattern,
  type CommandPattern,
} from '../../src/policy/tool-patterns.js';

const PATTERNS = ['git status', 'git log:*', 'npm test', 'npm run test:*', 'ls'];
const PARSED = PATTERNS.map(parseCommandPattern) as CommandPattern[];
const RUNS = Number(process.env.DEPUTY_FUZZ_RUNS ?? 100_000);

/** A rendered script and whether it is safe: only pattern-matching commands, nothing else. */
interface GenScript {
  text: string;
  safe: boolean;
}

const literal = fc.constantFrom(
  'git',
  'status',
  'log',
  'npm',
  'test',
  'run',
  'ls',
  'rm',
  'x',
  '-rf',
  '--oneline',
  'test:unit',
  '-n',
  '5',
  'a=b',
  '/dev/null',
  ';',
  '&&',
  '$(rm x)',
  '*',
  ' ',
);

/** Argv close to the patterns (so that many commands are allowed), or random words. */
const argv: fc.Arbitrary<readonly string[]> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ['git', 'status'],
      ['git', 'log'],
      ['git', 'log', '--oneline'],
      ['git', 'log', '-n', '5'],
      ['npm', 'test'],
      ['npm', 'run', 'test'],
      ['npm', 'run', 'test', 'test:unit'],
      ['ls'],
      ['rm', '-rf', 'x'],
      ['git', 'status', 'x'],
      ['npm', 'run', 'build'],
      ['git'],
    ),
  },
  { weight: 1, arbitrary: fc.array(literal, { minLength: 1, maxLength: 4 }) },
);

/** Renders one literal word so bash reads it back as `value` (quoting, escapes). */
const SAFE_CHARS = /^[A-Za-z0-9_./:=,+@%^-]$/;
function render(value: string, mode: number): string {
  if (mode === 1) return `'${value}'`;
  if (mode === 2) return `"${value.replace(/(["\\$`])/g, '\\$1')}"`;
  if (mode === 3 && value.length > 1) {
    return `${render(value.slice(0, 1), 0)}"${value.slice(1).replace(/(["\\$`])/g, '\\$1')}"`;
  }
  return [...value].map((c) => (SAFE_CHARS.test(c) ? c : `\\${c}`)).join('');
}

/** Words bash would expand: never literal, so never allowed. */
const dynamicWord = fc.constantFrom(
  '$X',
  '${X}',
  '"$X"',
  '*',
  'g?t',
  '[a]',
  '~',
  '{a,b}',
  '$((1))',
  "$'\\x41'",
  '"$(id)"',
  'a#b',
);

/** `arbitrary` once in `odds` draws, else null. */
function rarely<T>(arbitrary: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: odds - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

const { script } = fc.letrec<{ script: GenScript; pipeline: GenScript; unit: GenScript }>(
  (tie) => ({
    unit: fc.oneof(
      { maxDepth: 2, depthIdentifier: 'shell' },
      {
        weight: 30,
        arbitrary: fc
          .tuple(
            rarely(fc.constantFrom('A=1 ', 'PATH=. '), 12),
            argv,
            fc.array(fc.nat(3), { minLength: 4, maxLength: 4 }),
            // An extra part inserted among the words: an expanding word or a substitution.
            rarely(
              fc.tuple(
                fc.nat(4),
                fc.oneof(
                  { maxDepth: 2, depthIdentifier: 'shell' },
                  dynamicWord,
                  tie('pipeline').map((inner) => `$(${inner.text})`),
                  tie('pipeline').map((inner) => `\`${inner.text.replace(/[`\\$]/g, '\\$&')}\``),
                  tie('pipeline').map((inner) => `"$(${inner.text})"`),
                  tie('pipeline').map((inner) => `<(${inner.text})`),
                  tie('pipeline').map((inner) => `>(${inner.text})`),
                ),
              ),
              4,
            ),
            rarely(
              fc.constantFrom(
                { text: ' 2>&1', safe: true },
                { text: ' >/dev/null', safe: true },
                { text: ' 2>/dev/null', safe: true },
                { text: ' > x', safe: false },
                { text: ' >> x', safe: false },
                { text: ' < x', safe: false },
                { text: ' >& x', safe: false },
                { text: ' &> x', safe: false },
                { text: ' <<< x', safe: false },
                { text: ' <<EOF\nx\nEOF\n', safe: false },
              ),
              4,
            ),
          )
          .map(([assign, words, modes, extra, redirect]): GenScript => {
            const parts = words.map((value, index) => render(value, modes[index % 4]!));
            if (extra !== null) parts.splice(Math.min(extra[0], parts.length), 0, extra[1]);
            const text = (assign ?? '') + parts.join(' ') + (redirect?.text ?? '');
            const safe =
              assign === null &&
              extra === null &&
              (redirect === null || redirect.safe) &&
              PARSED.some((pattern) => commandMatches(words, pattern));
            return { text, safe };
          }),
      },
      {
        weight: 1,
        arbitrary: tie('script').map((inner) => ({ text: `( ${inner.text} )`, safe: false })),
      },
      {
        weight: 1,
        arbitrary: tie('script').map((inner) => ({ text: `{ ${inner.text}; }`, safe: false })),
      },
      {
        weight: 1,
        arbitrary: tie('script').map((inner) => ({ text: `f() { ${inner.text}; }`, safe: false })),
      },
      {
        weight: 1,
        arbitrary: tie('script').map((inner) => ({ text: `! ${inner.text}`, safe: false })),
      },
    ),
    pipeline: fc
      .tuple(
        tie('unit'),
        fc.array(fc.tuple(fc.constantFrom(' | ', ' |& ', '|'), tie('unit')), {
          maxLength: 2,
          depthIdentifier: 'shell',
        }),
      )
      .map(([first, rest]) => ({
        text: first.text + rest.map(([op, u]) => op + u.text).join(''),
        safe: first.safe && rest.every(([op, u]) => op.trim() === '|' && u.safe),
      })),
    script: fc
      .tuple(
        tie('pipeline'),
        fc.array(
          fc.tuple(
            fc.constantFrom('; ', ' && ', ' || ', '\n', ' & ', ';', '&&', ' ;; '),
            tie('pipeline'),
          ),
          { maxLength: 2, depthIdentifier: 'shell' },
        ),
        fc.constantFrom('', '', '', ';', ' &', '\n'),
      )
      .map(([first, rest, end]) => ({
        text: first.text + rest.map(([op, p]) => op + p.text).join('') + end,
        safe:
          first.safe &&
          rest.every(([op, p]) => op.trim() !== '&' && op.trim() !== ';;' && p.safe) &&
          end.trim() !== '&',
      })),
  }),
);

describe('tool pattern matcher, fuzzed', () => {
  it(`allows no generated command that runs something outside the patterns (${RUNS} runs)`, async () => {
    let allowed = 0;
    await fc.assert(
      fc.asyncProperty(script, async (generated) => {
        const analysis = await analyzeCommand(generated.text);
        const refusal = commandPatternRefusal(PATTERNS, analysis);
        if (refusal === null) {
          allowed += 1;
          // The analysis found nothing unjudgeable, and every command it found matches.
          expect(analysis.refused).toEqual([]);
          for (const argv of analysis.commands) {
            expect(PARSED.some((pattern) => commandMatches(argv, pattern))).toBe(true);
          }
          // And the generator, which knows what bash runs, agrees the script is safe.
          expect(generated.safe, generated.text).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
    console.info(`tool-patterns fuzz: ${RUNS} commands, ${allowed} allowed`);
    // The property is not vacuous: a share of the commands is allowed.
    expect(allowed).toBeGreaterThan(RUNS / 100);
  }, 600_000);
});
