/**
 * Why a text is not JSON, said without any of the text: a file an agent may write (`.mcp.json`)
 * can hold a secret, and its problem is printed, logged and answered (`GET /health`). V8's own
 * message quotes the text in some cases (`Unexpected token ',', "[1,,]" is not valid JSON`) and
 * gives no position in others, so the position comes from a scan of our own and the wording
 * from a fixed list.
 */

/** `not valid JSON: <what> at line L, column C`, or null when `text` is JSON. */
export function jsonSyntaxProblem(text: string): string | null {
  const found = new JsonScanner(text).problem();
  if (found === null) return null;
  const before = text.slice(0, found.offset);
  const line = before.split('\n').length;
  const column = found.offset - (before.lastIndexOf('\n') + 1) + 1;
  return `not valid JSON: ${found.what} at line ${line}, column ${column}`;
}

interface Found {
  offset: number;
  what: string;
}

/** A strict RFC 8259 scanner that stops at the first error; it builds nothing. */
class JsonScanner {
  #at = 0;

  constructor(private readonly text: string) {}

  problem(): Found | null {
    try {
      this.#space();
      this.#value();
      this.#space();
      if (this.#at < this.text.length) this.#fail('unexpected text after the JSON value');
      return null;
    } catch (error) {
      if (error instanceof ScanError) return { offset: error.offset, what: error.what };
      throw error;
    }
  }

  #fail(what: string): never {
    throw new ScanError(this.#at, this.#at >= this.text.length ? 'unexpected end of input' : what);
  }

  #space(): void {
    while (/[ \t\n\r]/.test(this.text[this.#at] ?? '')) this.#at += 1;
  }

  #value(): void {
    const char = this.text[this.#at];
    if (char === '{') return this.#object();
    if (char === '[') return this.#array();
    if (char === '"') return this.#string();
    if (char === '-' || /[0-9]/.test(char ?? '')) return this.#number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.#at)) {
        this.#at += word.length;
        return;
      }
    }
    this.#fail('expected a value');
  }

  #object(): void {
    this.#at += 1;
    this.#space();
    if (this.text[this.#at] === '}') {
      this.#at += 1;
      return;
    }
    for (;;) {
      this.#space();
      if (this.text[this.#at] !== '"')
        this.#fail("expected a property name in double quotes or '}'");
      this.#string();
      this.#space();
      if (this.text[this.#at] !== ':') this.#fail("expected ':' after a property name");
      this.#at += 1;
      this.#space();
      this.#value();
      this.#space();
      const next = this.text[this.#at];
      if (next === '}') {
        this.#at += 1;
        return;
      }
      if (next !== ',') this.#fail("expected ',' or '}' after a property value");
      this.#at += 1;
    }
  }

  #array(): void {
    this.#at += 1;
    this.#space();
    if (this.text[this.#at] === ']') {
      this.#at += 1;
      return;
    }
    for (;;) {
      this.#space();
      this.#value();
      this.#space();
      const next = this.text[this.#at];
      if (next === ']') {
        this.#at += 1;
        return;
      }
      if (next !== ',') this.#fail("expected ',' or ']' after an array element");
      this.#at += 1;
    }
  }

  #string(): void {
    this.#at += 1;
    for (;;) {
      const char = this.text[this.#at];
      if (char === undefined) this.#fail('unterminated string');
      if (char === '"') {
        this.#at += 1;
        return;
      }
      if (char < ' ') this.#fail('a control character in a string');
      if (char === '\\') {
        const escape = this.text[this.#at + 1] ?? '';
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.#at + 2, this.#at + 6))) {
            this.#fail('a bad \\u escape in a string');
          }
          this.#at += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(escape) || escape === '') this.#fail('a bad escape in a string');
        this.#at += 2;
        continue;
      }
      this.#at += 1;
    }
  }

  #number(): void {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.#at));
    if (match === null) this.#fail('a bad number');
    this.#at += match[0].length;
  }
}

class ScanError extends Error {
  constructor(
    readonly offset: number,
    readonly what: string,
  ) {
    super(what);
  }
}
