/**
 * The first and the last `limit` characters of a child's output. A process that dies says why
 * at the start (a Go panic's message) and where at the end (its stack); a plain tail loses the
 * first when the second is long.
 */
export class OutputEnds {
  private head = '';
  private tail = '';
  private dropped = false;

  constructor(private readonly limit: number) {}

  add(text: string): void {
    if (this.head.length < this.limit) {
      const room = this.limit - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === '') return;
    const joined = this.tail + text;
    if (joined.length > this.limit) this.dropped = true;
    this.tail = joined.slice(-this.limit);
  }

  toString(): string {
    if (this.tail === '') return this.head;
    return `${this.head}${this.dropped ? '\n[…]\n' : ''}${this.tail}`;
  }
}
