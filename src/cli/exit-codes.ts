/**
 * Exit codes scripts can rely on. Every failure path of every command ends here, so the mapping
 * from error to code (and to the one-line message on stderr) is defined once.
 */
import { CommanderError } from 'commander';
import { ConfigError } from '../shared/config-error.js';
import { DeputyError } from '../errors.js';
import type { Io } from './io.js';
import { TemporalUnreachableError } from '../temporal/unreachable.js';

export const EXIT = {
  ok: 0,
  /** The operation ran and failed: the delegation failed, was stopped, or a card was denied. */
  failed: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  unreachable: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A command body returns its exit code; program.ts turns thrown errors into codes. */
export type Run = (io: Io) => Promise<ExitCode>;

export const START_HINT = 'start one with `deputy dev` (or point TEMPORAL_ADDRESS at a cluster)';

/** The exit code and stderr message for an error thrown by a command. */
export function describeFailure(error: unknown): { code: ExitCode; message: string } {
  // Before the DeputyError kinds: it is an `unavailable` one, but the hint is about Temporal.
  if (error instanceof TemporalUnreachableError) {
    return { code: EXIT.unreachable, message: `${error.message}\nhint: ${START_HINT}` };
  }
  if (error instanceof DeputyError) {
    switch (error.kind) {
      case 'not-found':
        return { code: EXIT.notFound, message: error.message };
      case 'conflict':
        return { code: EXIT.conflict, message: error.message };
      case 'unavailable':
        return {
          code: EXIT.unreachable,
          message: `${error.message}\nhint: run \`deputy worker\` or \`deputy dev\` for this workspace`,
        };
      case 'invalid': {
        const details = error.issues
          .filter((issue) => issue.message !== error.message)
          .map((issue) => `\n  ${issue.path || '(request)'}: ${issue.message}`);
        return { code: EXIT.usage, message: error.message + details.join('') };
      }
      // Refusals no retry or other input can fix: the command ran and failed. The HTTP-door
      // ones (misdirected, media type, size) reach the CLI only relayed: it talks to Temporal.
      case 'malformed':
        return { code: EXIT.usage, message: error.message };
      case 'forbidden':
      case 'read-only':
      case 'unauthorized':
      case 'misdirected':
      case 'unsupported-media-type':
      case 'too-large':
        return { code: EXIT.failed, message: error.message };
    }
  }
  if (isUnavailable(error)) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      code: EXIT.unreachable,
      message: `cannot reach Temporal: ${detail}\nhint: ${START_HINT}`,
    };
  }
  if (error instanceof ConfigError) return { code: EXIT.usage, message: error.message };
  if (error instanceof CommanderError) return { code: EXIT.usage, message: error.message };
  return {
    code: EXIT.failed,
    message: error instanceof Error ? error.message : String(error),
  };
}

/** gRPC UNAVAILABLE (14) or DEADLINE_EXCEEDED (4) on the connection: the server went away. */
function isUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === 14) return true;
    if (/ECONNREFUSED|UNAVAILABLE|connection refused/i.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
