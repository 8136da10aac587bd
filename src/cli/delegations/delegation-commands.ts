/** Client commands: delegate, status, list, cards, approve, deny, stop. */
import { Option, type Command } from 'commander';
import {
  DELEGATION_STATUSES,
  type CardDecisionKind,
  type DelegationStatus,
} from '../../shared/delegation.js';
import { DEFAULT_SESSION } from '../../temporal/delegations/ids.js';
import { isRecorded } from '../../temporal/delegations/types.js';
import { localOperator } from '../../local-operator.js';
import { decideAs } from '../../asks/decide-as.js';
import { forkRequest } from '../../asks/follow-up-requests.js';
import { ANONYMOUS_CALLER } from '../../shared/caller.js';
import { PERMISSION_MODES } from '../../shared/policy-contract.js';
import { withDelegations } from '../context.js';
import { addApproveOptions, decisionFields, type DecideOptions } from './decision-options.js';
import { delegate, type DelegateOptions } from './delegate-command.js';
import { EXIT, type ExitCode, type Run } from '../exit-codes.js';
import { cardLines, stateLines, summaryTable } from '../format.js';
import { answer } from '../answer.js';
import { printJson, type Io } from '../io.js';
import { preferLocalApi } from '../local-api.js';
import { parseCallerMode, parsePositiveInteger } from '../option-parsers.js';
import { cardLinkLines, cardLinksFor } from './card-links.js';
import { addGoOnOptions, type GoOnOptions } from './go-on-options.js';
import { printStarted } from './print-started.js';

interface JsonOption {
  json?: boolean;
}

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per command, each short.
export function registerDelegationCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  program
    .command('delegate')
    .description(
      'start a delegation; in the foreground, print its progress and wait for the result',
    )
    .argument('<agent>', 'agent name')
    .argument('<task>', 'what the agent should do')
    .option('--session <session>', 'parent session the approval cards go to', DEFAULT_SESSION)
    .option('--background', 'print the delegation id and return at once')
    .option('--unattended', 'no human will answer: every approval becomes a denial')
    .option(
      '--card-timeout <duration>',
      "how long this delegation's approval cards wait (90s, 30m, 2h) before they are settled",
    )
    .option('--max-tokens <count>', 'token budget (input + output) of this delegation', (value) =>
      parsePositiveInteger(value),
    )
    .option(
      '--caller-mode <mode>',
      `your own permission mode (${PERMISSION_MODES.join(', ')}): the delegation runs at the lower of the agent's and this`,
      parseCallerMode,
    )
    .option('--json', 'machine-readable output')
    .action(async (agent: string, task: string, options: DelegateOptions, command: Command) =>
      run(command, (io) => delegate(command, io, agent, task, options)),
    );

  program
    .command('status')
    .description("a delegation's state, pending cards and result")
    .argument('<id>', 'delegation id')
    .option('--json', 'machine-readable output')
    .action(async (id: string, options: JsonOption, command: Command) =>
      run(command, (io) =>
        withDelegations(command, async (delegations) =>
          answer(io, options.json, await delegations.get(id), stateLines),
        ),
      ),
    );

  program
    .command('list')
    .description('delegations, newest first')
    .option('--session <session>', 'only this session')
    .option('--agent <agent>', 'only this agent')
    .addOption(new Option('--status <status>', 'only this status').choices(DELEGATION_STATUSES))
    .option('--schedule <name>', 'only the runs of this schedule')
    .option('--json', 'machine-readable output')
    .action(
      async (
        options: JsonOption & {
          session?: string;
          agent?: string;
          status?: DelegationStatus;
          schedule?: string;
        },
        command: Command,
      ) =>
        run(command, (io) =>
          withDelegations(command, async (delegations) => {
            const rows = await delegations.list({
              ...(options.session === undefined ? {} : { session: options.session }),
              ...(options.agent === undefined ? {} : { agent: options.agent }),
              ...(options.status === undefined ? {} : { status: options.status }),
              ...(options.schedule === undefined ? {} : { schedule: options.schedule }),
            });
            return answer(io, options.json, rows, summaryTable);
          }),
        ),
    );

  program
    .command('cards')
    .description('pending approval cards')
    .option('--session <session>', 'only this session')
    .option('--links', 'also print signed one-tap approve and deny links (needs a link key)')
    .option('--json', 'machine-readable output')
    .action(async (options: JsonOption & { session?: string; links?: boolean }, command: Command) =>
      run(command, async (io) => {
        const filter = options.session === undefined ? {} : { session: options.session };
        const cards = await preferLocalApi(
          command,
          (api) => api.cards.pending(filter),
          () => withDelegations(command, (delegations) => delegations.cards(filter)),
        );
        const links = options.links === true ? await cardLinksFor(command, cards) : null;
        const linksOf = (index: number) => (links === null ? [] : cardLinkLines(links[index]!));
        if (options.json) {
          printJson(
            io,
            links === null ? cards : cards.map((card, i) => ({ ...card, links: links[i] })),
          );
        } else if (cards.length === 0) io.out('no pending cards');
        else cards.forEach((card, i) => io.out([...cardLines(card), ...linksOf(i)].join('\n')));
        return EXIT.ok;
      }),
    );

  for (const decision of ['approve', 'deny'] as const) {
    const verb = program
      .command(decision)
      .description(`${decision} a pending approval card`)
      .argument('<cardId>', 'card id, as printed by `deputy cards`')
      .option(
        '--reason <reason>',
        decision === 'deny' ? 'told to the model' : 'recorded on the card',
      )
      .option('--json', 'machine-readable output');
    if (decision === 'approve') addApproveOptions(verb);
    verb.action(async (cardId: string, options: DecideOptions, command: Command) =>
      run(command, (io) => decide(command, io, cardId, decision, options)),
    );
  }

  program
    .command('answer')
    .description("answer a pending approval card in the tool's place (the tool does not run)")
    .argument('<cardId>', 'card id, as printed by `deputy cards`')
    .argument('<text>', "what the model gets as the tool's result")
    .option('--json', 'machine-readable output')
    .action(async (cardId: string, text: string, options: JsonOption, command: Command) =>
      run(command, (io) => decide(command, io, cardId, 'answer', { ...options, answer: text })),
    );

  program
    .command('stop')
    .description('stop a delegation (TaskStop); pending cards are denied')
    .argument('<id>', 'delegation id')
    .option('--json', 'machine-readable output')
    .action(async (id: string, options: JsonOption, command: Command) =>
      run(command, (io) =>
        withDelegations(command, async (delegations) => {
          return answer(io, options.json, await delegations.stop(id), (outcome) => [
            'stopped' in outcome
              ? `stopping ${id}; pending cards are denied`
              : `${id} had already finished (${outcome.status}); nothing to stop`,
          ]);
        }),
      ),
    );

  const fork = program
    .command('fork')
    .description(
      "start a new delegation from an existing one's transcript up to a round (no tool of those rounds runs again)",
    )
    .argument('<id>', 'the delegation to fork')
    .requiredOption('--from-round <n>', 'the last round to keep', (value) =>
      parsePositiveInteger(value),
    );
  addGoOnOptions(fork).action(
    async (id: string, options: GoOnOptions & { fromRound: number }, command: Command) =>
      run(command, (io) =>
        withDelegations(command, async (delegations) => {
          const forked = await delegations.fork(
            id,
            forkRequest({ ...options, caller: ANONYMOUS_CALLER }),
          );
          printStarted(
            io,
            options.json,
            { ...forked, status: 'running' },
            `forked ${id} after round ${options.fromRound} as ${forked.delegationId} (${forked.agent}); follow it: deputy status ${forked.delegationId}`,
          );
          return EXIT.ok;
        }),
      ),
  );
}

async function decide(
  command: Command,
  io: Io,
  cardId: string,
  decision: CardDecisionKind,
  options: DecideOptions,
): Promise<ExitCode> {
  const fields = decisionFields(options);
  const outcome = await preferLocalApi(
    command,
    // The API's 202 adds links for HTTP clients; the CLI prints what the direct path returns.
    async (api) => withoutLinks(await api.cards.decide(cardId, decision, fields)),
    () =>
      // The operator at this terminal, an admin as over the local socket: decided as they are.
      withDelegations(command, (delegations) =>
        decideAs(delegations, localOperator(), cardId, { decision, ...fields }),
      ),
  );
  if (options.json) printJson(io, outcome);
  else if (isRecorded(outcome)) {
    // Done from the human's side: Temporal holds the decision until a worker applies it.
    io.out(
      `card ${outcome.card.id} ${decision} recorded (${outcome.card.tool} for ${outcome.card.agent})`,
    );
    io.err(outcome.message);
  } else
    io.out(`card ${outcome.id} ${outcome.state.status} (${outcome.tool} for ${outcome.agent})`);
  return EXIT.ok;
}

function withoutLinks<T extends object>(outcome: T): T {
  const copy = { ...outcome } as Record<string, unknown>;
  delete copy.links;
  return copy as T;
}
