/**
 * The active trace context of a traced run (issue 32), kept without AsyncLocalStorage. Sandbox
 * code.
 *
 * Why not Temporal's workflow context manager: it keeps the context in an AsyncLocalStorage, and
 * the first `run` of one switches Node's async hooks on in the workflow thread; from then on every
 * promise of every run on that thread pays their bookkeeping, on top of the SDK's own stack capture
 * per promise. That was about a third of what tracing cost a step (docs/performance.md).
 *
 * What is active instead: inside `with`, the context it was given (a span around a signal, a
 * child's start: synchronous calls); elsewhere the run's *base*: the run's own span, or while a
 * call runs under `withBase` (a tool call in flight), that call's. A run's main loop is one chain
 * of awaits, so after each await its code sees the context AsyncLocalStorage would have given it.
 * What differs is code a signal or update handler leaves running after it returns: it continues
 * under the base, not the handler's span.
 */
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';

export class RunContextManager implements ContextManager {
  /** The context `with` set for the synchronous call under way, if any. */
  private current: Context | null = null;
  private base: Context = ROOT_CONTEXT;

  active(): Context {
    return this.current ?? this.base;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const outer = this.current;
    this.current = context;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = outer;
    }
  }

  /**
   * `call` under `context`, which stays the base, the context of the run's code after an await,
   * until the call's promise settles.
   */
  withBase<T>(context: Context, call: () => Promise<T>): Promise<T> {
    const outer = this.base;
    this.base = context;
    // Only if nothing took the base since: a later call's base is not undone by an earlier one's end.
    const restore = () => {
      if (this.base === context) this.base = outer;
    };
    let pending: Promise<T>;
    try {
      pending = this.with(context, call);
    } catch (error) {
      restore();
      throw error;
    }
    return pending.finally(restore);
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => this.with(context, fn, undefined, ...args)) as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = null;
    this.base = ROOT_CONTEXT;
    return this;
  }
}

/**
 * The run's context manager: one per run, as each run has its own module instances in the
 * sandbox. The interceptors register it; deputy's spans (./spans.ts) set the base of a tool call.
 */
export const runContexts = new RunContextManager();
