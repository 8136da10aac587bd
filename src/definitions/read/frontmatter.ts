/**
 * Splits a definition file into its frontmatter and body without touching a byte of either,
 * so write-back can reassemble `open + yaml + close + body` exactly.
 */
export interface SplitFile {
  /** False when the file does not start with a `---` line: the whole text is the body. */
  hasFrontmatter: boolean;
  /** True when an opening `---` was found but no closing one. */
  unclosed: boolean;
  /** The opening line including its line break (and a leading BOM), or `''`. */
  open: string;
  /** The YAML text between the fences. */
  yaml: string;
  /** The closing `---` line including its line break, or `''`. */
  close: string;
  /** Everything after the closing line, byte for byte. */
  body: string;
  /** Line break style of the frontmatter, reused when writing it back. */
  newline: '\n' | '\r\n';
}

const FENCE = /^---[ \t]*$/;

export function splitFrontmatter(text: string): SplitFile {
  const noFrontmatter: SplitFile = {
    hasFrontmatter: false,
    unclosed: false,
    open: '',
    yaml: '',
    close: '',
    body: text,
    newline: text.includes('\r\n') ? '\r\n' : '\n',
  };
  const start = text.startsWith('\uFEFF') ? 1 : 0;
  const firstBreak = text.indexOf('\n', start);
  if (firstBreak === -1) return noFrontmatter;
  const firstLine = stripCr(text.slice(start, firstBreak));
  if (!FENCE.test(firstLine)) return noFrontmatter;
  const newline = text[firstBreak - 1] === '\r' ? '\r\n' : '\n';
  const yamlStart = firstBreak + 1;
  let lineStart = yamlStart;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf('\n', lineStart);
    const end = lineEnd === -1 ? text.length : lineEnd;
    if (FENCE.test(stripCr(text.slice(lineStart, end)))) {
      const closeEnd = lineEnd === -1 ? text.length : lineEnd + 1;
      return {
        hasFrontmatter: true,
        unclosed: false,
        open: text.slice(0, yamlStart),
        yaml: text.slice(yamlStart, lineStart),
        close: text.slice(lineStart, closeEnd),
        body: text.slice(closeEnd),
        newline,
      };
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return { ...noFrontmatter, unclosed: true };
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
