import { Worker } from 'node:worker_threads';
import type { CompileFailure, GrepPattern } from './grep-pattern.js';
import { ToolError } from './tool.js';

/**
 * Runs one grep call's matching on a worker thread (grep-match-worker.js) under a time budget.
 * The engine is linear-time, but linear in pattern size times text size: a pattern of a few
 * thousand states over a long line still takes seconds. Off the main thread that costs the
 * process nothing (heartbeats, other tools and cancellation go on), and the budget ends it: the
 * thread is terminated, which stops a match wherever it is.
 */

const WORKER_URL = new URL('./grep-match-worker.js', import.meta.url);

/** Heap of one matcher thread: a 32 MiB file decodes to a 64 MiB string, plus its lines. */
const WORKER_HEAP_MB = 512;

export interface LineHit {
  /** 1-based line number. */
  line: number;
  /** The line, cut to the requested number of characters. */
  text: string;
  /** Characters of the whole line. */
  length: number;
}

/** What to search and the budgets that end a search early (see grep-match-worker.js). */
export interface SearchRequest {
  /** Real paths, already checked to be readable by the agent; searched in this order. */
  files: string[];
  maxHits: number;
  maxLineChars: number;
  maxBytes: number;
}

export type SearchOutcome =
  | { kind: 'done'; hitLimitReached: boolean; unreadFiles: number }
  /** The time budget ran out; `filesDone` files had been searched. */
  | { kind: 'expired'; filesDone: number };

type Reply =
  | { kind: 'ready' }
  | CompileFailure
  | { kind: 'file'; index: number; hits: LineHit[] }
  | { kind: 'done'; hitLimitReached: boolean; unreadFiles: number };

export interface MatcherOptions {
  /** Instructions a compiled pattern may have (RE2JS programSize). */
  maxProgramSize: number;
  /** Milliseconds from start() until matching is stopped, compiling included. */
  budgetMs: number;
  /** Stopping the delegation stops the match: the call then fails with "grep was cancelled". */
  signal: AbortSignal;
}

/**
 * An idle thread kept from the last call that ended normally: starting one costs tens of
 * milliseconds. A concurrent call simply starts its own.
 */
let spare: Worker | null = null;

function takeSpare(): Worker | null {
  const worker = spare;
  spare = null;
  worker?.off('exit', forgetSpare);
  return worker;
}

/** Attached only while a thread is the idle spare: one that died idle is not handed out. */
function forgetSpare(): void {
  spare = null;
}

function startWorker(): Worker {
  const worker = new Worker(WORKER_URL, {
    // Not the parent's flags: the thread runs plain JavaScript and needs no loader, and flags
    // such as `--input-type` or a test runner's would only break its start.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  // Always listened to: an 'error' no listener hears would crash the process, and one can
  // arrive after a call stopped listening (a thread failing as it is terminated). While a call
  // runs, its own listener reports the error.
  worker.on('error', () => {});
  return worker;
}

export class GrepMatcher {
  private pending: {
    resolve: (reply: Reply | 'expired') => void;
    reject: (error: Error) => void;
  } | null = null;
  /** Why the thread was stopped, once it was. */
  private ended: 'expired' | Error | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly signal: AbortSignal;
  /** Receives the per-file reports of the search under way. */
  private onFile: ((index: number, hits: LineHit[]) => void) | null = null;

  private constructor(
    private readonly worker: Worker,
    options: MatcherOptions,
  ) {
    this.signal = options.signal;
    worker.ref();
    worker.on('message', this.onMessage);
    worker.on('error', this.onError);
    worker.on('exit', this.onExit);
    this.signal.addEventListener('abort', this.onAbort, { once: true });
    this.timer = setTimeout(() => this.end('expired'), options.budgetMs);
  }

  /**
   * A matcher whose thread has compiled `pattern`; a CompileFailure for grep-pattern.ts to
   * word; or `'expired'` when the budget ran out first. Throws a ToolError when cancelled.
   */
  static async start(
    pattern: GrepPattern,
    options: MatcherOptions,
  ): Promise<GrepMatcher | CompileFailure | 'expired'> {
    if (options.signal.aborted) throw new ToolError('grep was cancelled');
    const worker = takeSpare() ?? startWorker();
    const matcher = new GrepMatcher(worker, options);
    let reply: Reply | 'expired';
    try {
      reply = await matcher.request({
        kind: 'compile',
        source: pattern.source,
        flags: pattern.flags,
        maxProgramSize: options.maxProgramSize,
      });
    } catch (error) {
      matcher.close();
      throw error;
    }
    if (reply !== 'expired' && reply.kind === 'ready') return matcher;
    matcher.close();
    if (reply === 'expired' || reply.kind === 'invalid' || reply.kind === 'too-large') return reply;
    throw new ToolError(`grep's matcher answered '${reply.kind}' to a compile request`);
  }

  /**
   * Searches the files on the thread; `onFile` hears of each one as it is done, with its hits,
   * in order.
   */
  async search(
    request: SearchRequest,
    onFile: (index: number, hits: LineHit[]) => void,
  ): Promise<SearchOutcome> {
    let filesDone = 0;
    this.onFile = (index, hits) => {
      filesDone = index + 1;
      onFile(index, hits);
    };
    const reply = await this.request({ kind: 'search', ...request });
    this.onFile = null;
    if (reply === 'expired') return { kind: 'expired', filesDone };
    if (reply.kind !== 'done') {
      throw new ToolError(`grep's matcher answered '${reply.kind}' to a search request`);
    }
    return reply;
  }

  /** Ends the call. A thread that is idle and was never stopped is kept for the next call. */
  close(): void {
    const reusable = this.ended === null && this.pending === null && spare === null;
    this.detach();
    if (!reusable) {
      void this.worker.terminate();
      return;
    }
    this.worker.unref(); // an idle spare must not keep the process alive
    this.worker.once('exit', forgetSpare);
    spare = this.worker;
  }

  private request(message: Record<string, unknown>): Promise<Reply | 'expired'> {
    if (this.ended === 'expired') return Promise.resolve('expired');
    if (this.ended !== null) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(message);
    });
  }

  /** Stops the thread for good; the pending request gets `'expired'` or fails with `reason`. */
  private end(reason: 'expired' | Error): void {
    if (this.ended !== null) return;
    this.ended = reason;
    this.detach();
    void this.worker.terminate();
    const pending = this.pending;
    this.pending = null;
    if (reason === 'expired') pending?.resolve('expired');
    else pending?.reject(reason);
  }

  private detach(): void {
    clearTimeout(this.timer);
    this.signal.removeEventListener('abort', this.onAbort);
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
  }

  private readonly onMessage = (reply: Reply): void => {
    if (reply.kind === 'file') {
      this.onFile?.(reply.index, reply.hits);
      return;
    }
    const pending = this.pending;
    this.pending = null;
    pending?.resolve(reply);
  };

  private readonly onAbort = (): void => this.end(new ToolError('grep was cancelled'));

  private readonly onError = (error: Error): void =>
    this.end(new ToolError(`grep's matcher failed: ${error.message}`));

  private readonly onExit = (code: number): void =>
    this.end(new ToolError(`grep's matcher stopped unexpectedly (exit code ${code})`));
}
