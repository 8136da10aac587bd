/**
 * Definition hooks: shell commands run around tool calls. A `PreToolUse` hook that
 * exits non-zero blocks the call, and its stderr is the reason the model reads; a failing
 * `PostToolUse` hook is reported next to the result. Hooks get the call as JSON on stdin.
 */
import { spawn } from 'node:child_process';
import type { HookCommandRef } from '../shared/capability-snapshot.js';

export type HookEvent = 'PreToolUse' | 'PostToolUse' | 'Stop';

const DEFAULT_TIMEOUT_SECONDS = 60;
/** Stderr kept for the reason; a hook is no place for a novel. */
export const REASON_CHARS = 2_000;

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
  // Hooks in Claude Code's form have their own contract (src/activities/claude-hooks.ts).
  for (const hook of (hooks?.[event] ?? []).filter((entry) => entry.format !== 'claude')) {
    const failure = await runHook(hook, JSON.stringify({ event, ...payload }), event, options);
    if (failure) return { command: hook.command, reason: failure };
  }
  return null;
}

async function runHook(
  hook: HookCommandRef,
  input: string,
  event: HookEvent,
  options: { cwd: string; signal: AbortSignal },
): Promise<string | null> {
  const run = await spawnHook(hook, input, { DEPUTY_HOOK_EVENT: event }, options);
  const detail = run.stderr.trim().slice(0, REASON_CHARS);
  if (run.startError !== null) return `hook could not start: ${run.startError}`;
  if (run.stoppedBy) return `hook ${run.stoppedBy}${detail ? `: ${detail}` : ''}`;
  if (run.code !== 0) return detail || `hook exited with code ${run.code ?? 'unknown'}`;
  return null;
}

export interface HookRun {
  /** Exit code; null when killed or never started. */
  code: number | null;
  /** At most `STDOUT_CHARS` of it; `stdoutCut` says more was written. */
  stdout: string;
  stdoutCut: boolean;
  /** At most `REASON_CHARS` of it. */
  stderr: string;
  /** `timed out after N s` or `cancelled`, when deputy killed it. */
  stoppedBy: string | null;
  startError: string | null;
}

/** Stdout kept for a hook's JSON answer; the rest is read and dropped. */
export const STDOUT_CHARS = 64_000;

/**
 * Runs one hook command: `bash -c`, the input on stdin, a minimal environment, killed (with its
 * process group) at its timeout or when the activity is cancelled. Output is bounded.
 */
export function spawnHook(
  hook: HookCommandRef,
  input: string,
  extraEnv: Record<string, string>,
  { cwd, signal }: { cwd: string; signal: AbortSignal },
): Promise<HookRun> {
  const timeoutSeconds = hook.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  return new Promise((resolve) => {
    // Like the bash tool: a minimal environment, so deputy's own secrets never reach a hook.
    // --norc: as the bash tool (src/tools/bash.ts), no ~/.bashrc runs before the hook.
    const child = spawn('bash', ['--norc', '--noprofile', '-c', hook.command], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? cwd,
        LANG: process.env.LANG ?? 'C.UTF-8',
        ...extraEnv,
      },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stdoutCut = false;
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
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < STDOUT_CHARS) stdout += chunk.toString('utf8');
      if (stdout.length > STDOUT_CHARS) {
        stdout = stdout.slice(0, STDOUT_CHARS);
        stdoutCut = true;
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < REASON_CHARS) stderr += chunk.toString('utf8');
    });
    // A hook that ignores its stdin closes the pipe early; that is not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    let settled = false;
    const finish = (code: number | null, startError: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({
        code,
        stdout,
        stdoutCut,
        stderr: stderr.slice(0, REASON_CHARS),
        stoppedBy,
        startError,
      });
    };
    child.once('error', (error) => finish(null, error.message));
    child.once('close', (code) => finish(code, null));
  });
}
