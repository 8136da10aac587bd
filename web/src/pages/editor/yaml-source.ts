/**
 * The YAML tab's text: the agent as the Markdown file a save writes (`---`, the frontmatter,
 * `---`, then the system prompt), made from the form until the user types in it. After that the
 * text is the user's, and a change made in the form is written into that one key of it
 * (`patchSource`), leaving every other line, comment and spelling as typed.
 */
import { Document, isMap, parseDocument } from 'yaml';
import { spelledFields, type Fields } from './form-model';

/** As the server writes files (src/definitions/registry/write-back.ts): no folding, compact flows. */
const TO_STRING = { lineWidth: 0, flowCollectionPadding: false } as const;

export function sourceOf(fields: Fields): string {
  const { systemPrompt, ...frontmatter } = spelledFields(fields);
  const yaml =
    Object.keys(frontmatter).length === 0 ? '' : new Document(frontmatter).toString(TO_STRING);
  return `---\n${yaml}---\n${typeof systemPrompt === 'string' ? systemPrompt : ''}`;
}

interface Split {
  open: string;
  yaml: string;
  close: string;
  body: string;
}

const FENCE = /^---[ \t]*\r?$/;

/** The file's parts as the server's splitFrontmatter cuts them; null without a closed block. */
export function splitSource(text: string): Split | null {
  const start = text.startsWith('\uFEFF') ? 1 : 0;
  const firstBreak = text.indexOf('\n', start);
  if (firstBreak === -1 || !FENCE.test(text.slice(start, firstBreak))) return null;
  let lineStart = firstBreak + 1;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf('\n', lineStart);
    const end = lineEnd === -1 ? text.length : lineEnd;
    if (FENCE.test(text.slice(lineStart, end))) {
      const closeEnd = lineEnd === -1 ? text.length : lineEnd + 1;
      return {
        open: text.slice(0, firstBreak + 1),
        yaml: text.slice(firstBreak + 1, lineStart),
        close: text.slice(lineStart, closeEnd),
        body: text.slice(closeEnd),
      };
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return null;
}

/**
 * `text` with the fields that differ between `before` and `after` written into its frontmatter
 * (a field back to its default is removed), or null when the frontmatter cannot be read as a
 * map: then the form cannot say where its change goes, and the caller keeps the text.
 */
export function patchSource(text: string, before: Fields, after: Fields): string | null {
  const split = splitSource(text);
  if (split === null) return null;
  const doc = parseDocument(split.yaml);
  if (doc.errors.length > 0) return null;
  if (doc.contents !== null && !isMap(doc.contents)) return null;
  const was = spelledFields(before);
  const now = spelledFields(after);
  let body = split.body;
  const keys = new Set([...Object.keys(was), ...Object.keys(now)]);
  for (const key of keys) {
    if (JSON.stringify(was[key]) === JSON.stringify(now[key])) continue;
    if (key === 'systemPrompt') {
      body = typeof now[key] === 'string' ? now[key] : '';
    } else if (Object.hasOwn(now, key)) {
      doc.set(key, now[key]);
    } else {
      doc.delete(key);
    }
  }
  const yaml = doc.contents === null ? '' : doc.toString(TO_STRING);
  return `${split.open}${yaml === '{}\n' ? '' : yaml}${split.close}${body}`;
}

/** `maxTokens` as the frontmatter writes it: the one field the API's agent shape leaves out. */
export function maxTokensOf(text: string): number | undefined {
  const split = splitSource(text);
  if (split === null) return undefined;
  const doc = parseDocument(split.yaml);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const value: unknown = doc.get('maxTokens');
  return typeof value === 'number' ? value : undefined;
}

/** True when the frontmatter reads as a map (or is empty): the form can write into it. */
export function isReadableSource(text: string): boolean {
  const split = splitSource(text);
  if (split === null) return false;
  const doc = parseDocument(split.yaml);
  return doc.errors.length === 0 && (doc.contents === null || isMap(doc.contents));
}
