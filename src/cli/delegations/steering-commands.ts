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
import { messageRequest, resumeRequest } from '../../asks/follow-up-requests.js';
import { answer } from '../answer.js';
import { addGoOnOptions, type GoOnOptions } from './go-on-options.js';
import { printStarted } from './print-started.js';

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
          return answer(io, options.json, message, ({ seq }) => [
            `message ${seq} queued for ${id}; its model gets it at the next round boundary`,
          ]);
        }),
      ),
    );

  const resume = program
    .command('resume')
    .description(
      'continue a finished (completed, failed or stopped) delegation with a new message, as a new delegation',
    )
    .argument('<id>', 'the delegation to resume')
    .argument('<text...>', 'the new message');
  addGoOnOptions(resume).action(
    async (id: string, words: string[], options: GoOnOptions, command: Command) =>
      run(command, (io) =>
        withDelegations(command, async (delegations, config) => {
          const resumed = await delegations.resume(
            id,
            resumeRequest(
              { ...options, text: words.join(' '), caller: ANONYMOUS_CALLER },
              secretMaskerFor(config),
            ),
          );
          printStarted(
            io,
            options.json,
            { ...resumed, status: 'running', resumedFrom: id },
            `resumed ${id} as ${resumed.delegationId} (${resumed.agent}); follow it: deputy status ${resumed.delegationId}`,
          );
          return EXIT.ok;
        }),
      ),
  );
}
