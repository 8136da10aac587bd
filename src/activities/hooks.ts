/**
 * Definition hooks (DEF-1): shell commands run around tool calls. A `PreToolUse` hook that
 * exits non-zero blocks the call, and its stderr is the reason the model reads; a failing
 * `PostToolUse` hook is reported next to the result. Hooks get the call as JSON on stdin.
 */
import { spawn } from 'node:child_process';
import type { HookCommandRef } from '../shared/capability-snapshot.js';

export type HookEvent = 'PreToolUse' | 'PostToolUse' | 'Stop';

const DEFAULT_TIMEOUT_SECONDS = 60;
/** Stderr kept for the reason; a hook is no place for a novel. */
const REASON_CHARS = 2_000;

export interface HookFailure {
  command: string;
  reason: string;
}

/** Runs the event's hooks in order; returns the first failure, or null when all exited 0. */
export async function runHooks(
  hooks: Record<string, HookCommandRef[]> | undefined,
  event: HookEvent,
  payload: Record<string, unknown>,
  options: { cwd: string; signal: AbortSignal },
): Promise<HookFailure | null> {
  for (const hook of hooks?.[event] ?? []) {
    const failure = await runHook(hook, JSON.stringify({ event, ...payload }), event, options);
    if (failure) return { command: hook.command, reason: failure };
  }
  return null;
}

function runHook(
  hook: HookCommandRef,
  input: string,
  event: HookEvent,
  { cwd, signal }: { cwd: string; signal: AbortSignal },
): Promise<string | null> {
  const timeoutSeconds = hook.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  return new Promise((resolve) => {
    // Like the bash tool: a minimal environment, so deputy's own secrets never reach a hook.
    const child = spawn('bash', ['-c', hook.command], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? cwd,
        LANG: process.env.LANG ?? 'C.UTF-8',
        DEPUTY_HOOK_EVENT: event,
      },
      detached: true,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    let stoppedBy: string | null = null;
    const kill = (why: string): void => {
      stoppedBy = why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(
      () => kill(`timed out after ${timeoutSeconds} s`),
      timeoutSeconds * 1000,
    );
    const onAbort = (): void => kill('cancelled');
    signal.addEventListener('abort', onAbort, { once: true });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < REASON_CHARS) stderr += chunk.toString('utf8');
    });
    // A hook that ignores its stdin closes the pipe early; that is not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    const finish = (reason: string | null): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(reason);
    };
    child.once('error', (error) => finish(`hook could not start: ${error.message}`));
    child.once('close', (code) => {
      const detail = stderr.trim().slice(0, REASON_CHARS);
      if (stoppedBy) finish(`hook ${stoppedBy}${detail ? `: ${detail}` : ''}`);
      else if (code !== 0) finish(detail || `hook exited with code ${code ?? 'unknown'}`);
      else finish(null);
    });
  });
}
