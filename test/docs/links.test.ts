/**
 * The README and the pages under docs/ are read on GitHub and in a clone, with nothing else beside
 * them: every relative link must land on a file of the repository (and on a heading of that file
 * when it names one), and no page may send its reader to a document the repository does not hold.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The page's lines outside fenced code blocks, where a `#` or a `[x](y)` is text, not Markdown. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** A line without its code spans, whose brackets and hashes are literal. */
const withoutCode = (line: string): string => line.replace(/`[^`]*`/g, '');

/** The anchors GitHub gives a page's headings: rendered text, lower case, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const rendered = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[`*]/g, '')
      .toLowerCase();
    const slug = rendered.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const repeat = seen.get(slug) ?? 0;
    seen.set(slug, repeat + 1);
    result.add(repeat === 0 ? slug : `${slug}-${repeat}`);
  }
  return result;
}

/** Every inline link and image target of a page's prose. */
function targets(text: string): string[] {
  return proseLines(text).flatMap((line) =>
    [...withoutCode(line).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
      (match) => match[1] ?? '',
    ),
  );
}

/** What is wrong with one link of `page`, or null when it lands where it says. */
function brokenLink(page: string, target: string): string | null {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return null;
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? join(root, page) : resolve(dirname(join(root, page)), path);
  const inside = relative(root, file);
  if (inside.startsWith(`..${sep}`) || inside === '..') return 'points outside the repository';
  if (!existsSync(file)) return 'names no file';
  if (anchor === undefined || !file.endsWith('.md')) return null;
  return anchors(readFileSync(file, 'utf8')).has(anchor) ? null : 'names no heading of that page';
}

/** Words that cite a document outside the repository: a spec section or id, an issue number. */
const CITATIONS = [
  /\bSPEC\b/,
  /DESIGN\.md/,
  /\b[Ii]ssues? #?\d+/,
  /\.\.\/shared\b/,
  // An id such as a requirement's; hash and encoding names (SHA-256, UTF-8) are not citations.
  /\b(?!SHA-|UTF-)[A-Z]{2,4}-\d+\b/,
];

describe('the README and docs/', () => {
  it('link only to files and headings the repository holds', () => {
    const broken = pages.flatMap((page) =>
      targets(readFileSync(join(root, page), 'utf8')).flatMap((target) => {
        const problem = brokenLink(page, target);
        return problem === null ? [] : [`${page}: ${target} ${problem}`];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('cite no document outside the repository', () => {
    const citing = pages.flatMap((page) =>
      readFileSync(join(root, page), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          CITATIONS.some((pattern) => pattern.test(line)) ? [`${page}:${index + 1}: ${line}`] : [],
        ),
    );
    expect(citing).toEqual([]);
  });

  it('show a newcomer the picture, the diagram and the two commands first', () => {
    const top = readFileSync(join(root, 'README.md'), 'utf8').split('\n').slice(0, 45).join('\n');
    expect(top).toContain('```mermaid');
    expect(top).toContain('](docs/screenshots/inbox.png)');
    expect(top).toMatch(/^npm install && npm start\b/m);
    expect(top).toMatch(/^npm test\b/m);
  });
});
