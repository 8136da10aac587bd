/**
 * `deputy send <id> <text>` and `deputy resume <id> <text>`: steer a running
 * delegation with a message its model gets at the next round boundary, or continue a finished
 * one with a new message as a new delegation (its transcript carried, no tool run again).
 */
import type { Command } from 'commander';
import { localOperatorId } from '../../local-operator.js';
import { secretMaskerFor } from '../../secrets/masker.js';
import { ANONYMOUS_CALLER } from '../../shared/caller.js';
import { withDelegations } from '../context.js';
import { EXIT, type Run } from '../exit-codes.js';
import { printJson } from '../io.js';
import { messageRequest, resumeRequest } from '../../asks/follow-up-requests.js';

interface JsonOption {
  json?: boolean;
}

export function registerSteeringCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  program
    .command('send')
    .description(
      'send a running delegation a message: its model gets it at the next round boundary',
    )
    .argument('<id>', 'delegation id')
    .argument('<text...>', 'the message')
    .option('--json', 'machine-readable output')
    .action(async (id: string, words: string[], options: JsonOption, command: Command) =>
      run(command, (io) =>
        withDelegations(command, async (delegations, config) => {
          const message = await delegations.send(
            id,
            messageRequest(
              { text: words.join(' '), from: localOperatorId() },
              secretMaskerFor(config),
            ),
          );
          if (options.json) printJson(io, message);
          else
            io.out(
              `message ${message.seq} queued for ${id}; its model gets it at the next round boundary`,
            );
          return EXIT.ok;
        }),
      ),
    );

  program
    .command('resume')
    .description(
      'continue a finished (completed, failed or stopped) delegation with a new message, as a new delegation',
    )
    .argument('<id>', 'the delegation to resume')
    .argument('<text...>', 'the new message')
    .option('--agent <agent>', "go on under this definition (default: the original's)")
    .option('--model <model>', "go on with this model (default: the definition's)")
    .option('--json', 'machine-readable output')
    .action(
      async (
        id: string,
        words: string[],
        options: JsonOption & { agent?: string; model?: string },
        command: Command,
      ) =>
        run(command, (io) =>
          withDelegations(command, async (delegations, config) => {
            const resumed = await delegations.resume(
              id,
              resumeRequest(
                { ...options, text: words.join(' '), caller: ANONYMOUS_CALLER },
                secretMaskerFor(config),
              ),
            );
            if (options.json) printJson(io, { ...resumed, status: 'running', resumedFrom: id });
            else {
              io.out(resumed.delegationId);
              io.err(
                `resumed ${id} as ${resumed.delegationId} (${resumed.agent}); follow it: deputy status ${resumed.delegationId}`,
              );
            }
            return EXIT.ok;
          }),
        ),
    );
}
