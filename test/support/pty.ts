/**
 * A command on a real pseudo-terminal (test/support/pty-run.py), seen as a user sees it: what
 * the terminal shows (escape sequences stripped) and keys typed into it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/config/load.js';

const DRIVER = join(PROJECT_ROOT, 'test', 'support', 'pty-run.py');

/** Cursor moves, line clears and colours: what a terminal interprets and never shows. */
export function visibleText(raw: string): string {
  return raw
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '') // eslint-disable-line no-control-regex
    .replace(/\r/g, '');
}

export class Terminal {
  private raw = '';
  /** Where the next `waitFor` starts looking: text already matched is not matched again. */
  private cursor = 0;
  private readonly child: ChildProcess;
  private closed = false;
  readonly exited: Promise<number | null>;

  constructor(command: string[], env: NodeJS.ProcessEnv, cwd: string) {
    this.child = spawn('python3', [DRIVER, ...command], { env, cwd, stdio: 'pipe' });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.raw += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.raw += chunk.toString()));
    // 'close', not 'exit': by then every byte the terminal showed has been read.
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code) => {
        this.closed = true;
        resolve(code);
      }),
    );
  }

  /** Everything the terminal has shown so far. */
  screen(): string {
    return visibleText(this.raw);
  }

  /** Types `keys` (a line needs its `\r`, as Enter sends). */
  type(keys: string): void {
    this.child.stdin!.write(keys);
  }

  /**
   * Resolves with the text shown from the last match up to and including the first match of
   * `pattern` after it; fails after `timeoutMs` with the whole screen in the message.
   */
  async waitFor(pattern: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      const rest = screen.slice(this.cursor);
      const found =
        typeof pattern === 'string'
          ? { index: rest.indexOf(pattern), length: pattern.length }
          : (() => {
              const match = pattern.exec(rest);
              return { index: match?.index ?? -1, length: match?.[0].length ?? 0 };
            })();
      if (found.index >= 0) {
        const end = this.cursor + found.index + found.length;
        const seen = screen.slice(this.cursor, end);
        this.cursor = end;
        return seen;
      }
      if (Date.now() > deadline || this.closed) {
        throw new Error(
          `the terminal did not show ${String(pattern)} (${this.closed ? `exited ${this.child.exitCode}` : 'timed out'}); it shows:\n${screen}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Kills the driver (the pty hangs up, the command gets SIGHUP); a no-op once it exited. */
  async kill(): Promise<void> {
    if (this.closed) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}
