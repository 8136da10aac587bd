/** `deputy revoke <id> <n>`: take back what was allowed for the rest of a delegation. */
import { InvalidArgumentError, type Command } from 'commander';
import { localOperatorId } from '../../local-operator.js';
import { withDelegations } from '../context.js';
import { EXIT, type Run } from '../exit-codes.js';
import { printJson } from '../io.js';
import { preferLocalApi } from '../local-api.js';

export function registerGrantCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  program
    .command('revoke')
    .description('revoke a grant: calls it allowed for the rest of the delegation ask again')
    .argument('<id>', 'delegation id')
    .argument('<n>', 'grant number, as deputy status lists it', grantNumber)
    .option('--json', 'machine-readable output')
    .action(async (id: string, n: number, options: { json?: boolean }, command: Command) =>
      run(command, async (io) => {
        const grant = await preferLocalApi(
          command,
          (api) => api.delegations.revokeGrant(id, n),
          () =>
            withDelegations(command, (delegations) =>
              delegations.revokeGrant(id, n, localOperatorId()),
            ),
        );
        if (options.json) printJson(io, grant);
        else io.out(`grant ${grant.n} of ${id} revoked (${grant.tool})`);
        return EXIT.ok;
      }),
    );
}

function grantNumber(value: string): number {
  if (!/^[1-9]\d{0,5}$/.test(value.trim())) {
    throw new InvalidArgumentError('a grant number is a positive whole number');
  }
  return Number(value);
}
