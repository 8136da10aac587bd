/**
 * `deputy delegate <agent> <task>`: start a delegation; in the background print its id, in the
 * foreground follow it to its result.
 */
import type { Command } from 'commander';
import { secretMaskerFor } from '../../secrets/masker.js';
import { ANONYMOUS_CALLER } from '../../shared/caller.js';
import type { PermissionMode } from '../../shared/policy-contract.js';
import { delegationStart } from '../../temporal/start-requests.js';
import { TemporalUnreachableError } from '../../temporal/unreachable.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import type { StartedDelegation } from '../../temporal/delegations/types.js';
import { loadRegistry } from '../agents-commands.js';
import { withDelegations } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { resultLines } from '../format.js';
import { printJson, type Io } from '../io.js';
import { followDelegation } from './follow.js';
import { printStarted } from './print-started.js';

export interface DelegateOptions {
  session: string;
  background?: boolean;
  unattended?: boolean;
  cardTimeout?: string;
  maxTokens?: number;
  callerMode?: PermissionMode;
  json?: boolean;
}

export function delegate(
  command: Command,
  io: Io,
  agent: string,
  task: string,
  options: DelegateOptions,
): Promise<ExitCode> {
  return withDelegations(command, async (delegations, config) => {
    const registry = await loadRegistry(command);
    const { request, background } = delegationStart(
      { ...options, agent, task, caller: ANONYMOUS_CALLER },
      {
        masker: secretMaskerFor(config),
        agentRunsInBackground: (name) => registry.get(name)?.definition.background === true,
      },
    );
    const started = await delegations.start(request);
    if (background) {
      printStarted(
        io,
        options.json,
        { ...started, status: 'running' },
        `follow it: deputy status ${started.delegationId}`,
      );
      return EXIT.ok;
    }
    io.err(`delegation ${started.delegationId} (${started.workflowId})`);
    return follow(delegations, io, started, options);
  });
}

/** The foreground: progress on stderr until the result, which decides the exit code. */
async function follow(
  delegations: Delegations,
  io: Io,
  started: StartedDelegation,
  options: DelegateOptions,
): Promise<ExitCode> {
  const abort = new AbortController();
  const onInterrupt = () => abort.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const result = await followDelegation(delegations, started.delegationId, io.err, {
      signal: abort.signal,
    }).catch((error: unknown) => {
      // Temporal went away mid-follow: exit 5 now, but say the work itself goes on.
      if (error instanceof TemporalUnreachableError) {
        io.err(`the delegation runs on: deputy status ${started.delegationId}`);
      }
      throw error;
    });
    if (result === null) {
      io.err(`detached; the delegation runs on: deputy status ${started.delegationId}`);
      return EXIT.ok;
    }
    const denied = result.deniedCalls ?? [];
    if (options.json) {
      printJson(io, { ...started, status: result.status, result });
    } else {
      for (const line of resultLines(result)) io.out(line);
    }
    if (denied.length > 0) {
      const tools = denied.map((call) => call.tool).join(', ');
      io.err(`${denied.length} tool call(s) were denied: ${tools}`);
    }
    // Scripts need to know the work was not done as asked: failed, stopped or denied.
    return result.status === 'completed' && denied.length === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
