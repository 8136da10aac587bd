/**
 * `deputy chat [agent]` and `deputy chat --attach <sessionId>`: an interactive session on the
 * terminal. The session's stream is printed as it comes while the user types messages and
 * answers approval cards inline (chat-input.ts has the rules). Leaving (Ctrl-C, Ctrl-D,
 * /detach) never stops the session: it is a workflow, and a later attach picks it up, printing
 * the cards that opened meanwhile first. Only /stop stops it.
 */
import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import type { Command } from 'commander';
import type { ApprovalCard, DelegationEvent } from '../../shared/delegation.js';
import { DeputyError } from '../../errors.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import { isRecorded } from '../../temporal/delegations/types.js';
import type { Sessions } from '../../temporal/sessions/facade.js';
import { ANONYMOUS_CALLER } from '../../shared/caller.js';
import { sessionStart } from '../../temporal/start-requests.js';
import { secretMaskerFor, type SecretMasker } from '../../secrets/masker.js';
import { CHAT_HELP, parseChatLine, promptFor, type ChatCommand } from './chat-input.js';
import { withSessions } from '../context.js';
import { describeFailure, EXIT, type ExitCode } from '../exit-codes.js';
import { cardLines, eventLines, oneLine } from '../format.js';
import type { Run } from '../exit-codes.js';
import { localOperator } from '../../local-operator.js';
import { decideAs } from '../../asks/decide-as.js';
import { messageRequest } from '../../asks/follow-up-requests.js';
import { PendingCards, followSession, lastSeqOf, trackCards } from './session-stream.js';

const FINISHED = new Set(['completed', 'failed', 'stopped']);

export function registerChatCommand(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  program
    .command('chat')
    .description('chat with a session on this terminal: start one, or attach to a running one')
    .argument('[agent]', 'main agent of a new session (default: the built-in main)')
    .option('--attach <sessionId>', 'attach to a running session instead of starting one')
    .option('--id <sessionId>', 'id for the new session (default: generated)')
    .option('--unattended', 'no human will answer: every approval becomes a denial')
    .addHelpText('after', `\n${CHAT_HELP}`)
    .action(
      async (
        agent: string | undefined,
        options: { attach?: string; id?: string; unattended?: boolean },
        command: Command,
      ) =>
        run(command, () =>
          withSessions(command, async (sessions, delegations, config) => {
            if (options.attach !== undefined && (agent !== undefined || options.id !== undefined)) {
              throw new DeputyError('invalid', '--attach takes no agent and no --id');
            }
            let sessionId: string;
            let header: string;
            if (options.attach === undefined) {
              const started = await sessions.start(
                sessionStart(
                  {
                    agent,
                    sessionId: options.id,
                    unattended: options.unattended,
                    caller: ANONYMOUS_CALLER,
                  },
                  secretMaskerFor(config),
                ),
              );
              sessionId = started.sessionId;
              header = `session ${sessionId} with ${started.agent} started. Type a message; /help lists the commands.`;
            } else {
              sessionId = options.attach;
              const state = await sessions.get(sessionId);
              if (FINISHED.has(state.status)) {
                throw new DeputyError(
                  'conflict',
                  `session ${sessionId} has ended (${state.status}); start a new one with deputy chat`,
                );
              }
              header = `attached to session ${sessionId} (agent ${state.agent}, ${state.status}, ${state.tasks.length} task(s)). /help lists the commands.`;
            }
            return chat({
              sessions,
              delegations,
              masker: secretMaskerFor(config),
              sessionId,
              header,
              attach: options.attach !== undefined,
            });
          }),
        ),
    );
}

interface ChatContext {
  sessions: Sessions;
  delegations: Delegations;
  masker: SecretMasker;
  sessionId: string;
  header: string;
  /** Attaching: skip the stream so far, print the cards pending now first. */
  attach: boolean;
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  output?: NodeJS.WritableStream & { isTTY?: boolean };
}

async function chat(context: ChatContext): Promise<ExitCode> {
  const { sessions, sessionId } = context;
  const input = context.input ?? process.stdin;
  const output = context.output ?? process.stdout;
  const pending = new PendingCards();
  const tty = Boolean(input.isTTY && output.isTTY);
  const screen = new Screen(
    createInterface({ input, output, terminal: tty, historySize: 200 }),
    output,
    tty,
  );
  const leave = new AbortController();
  const detach = () => leave.abort();
  screen.readline.on('SIGINT', detach); // Ctrl-C on the TTY (raw mode: no signal is sent)
  screen.readline.on('close', detach); // Ctrl-D, or the input ended
  process.on('SIGINT', detach); // kill -INT, or input that is not a TTY
  process.on('SIGHUP', detach); // the terminal went away

  // Listening before the first await: a line typed while the attach is still reading the
  // pending cards would otherwise be dropped. It is parsed once they are known, and one command
  // runs at a time, in the order typed: a decision must not overtake a message.
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let busy: Promise<void> = ready;
  screen.readline.on('line', (line) => {
    busy = busy.then(() =>
      handle(context, parseChatLine(line, pending.ids()), pending, screen, detach),
    );
  });

  try {
    screen.print([context.header]);
    let afterSeq = 0;
    if (context.attach) {
      afterSeq = await lastSeqOf(sessions, sessionId);
      const waiting = await sessions.cards(sessionId);
      if (waiting.length > 0) screen.print([`${waiting.length} card(s) pending:`]);
      for (const card of waiting) if (pending.open(card)) screen.print(chatCardLines(card));
    }
    screen.setPrompt(promptFor(pending.ids()));
    markReady();

    const finished = await followSession(
      sessions,
      sessionId,
      (event) => {
        if (trackCards(pending, event)) return;
        screen.print(chatEventLines(event));
        screen.setPrompt(promptFor(pending.ids()));
      },
      {
        afterSeq,
        signal: leave.signal,
        onWaiting: () =>
          screen.print([
            'waiting for a worker to pick the session up (is `deputy dev` or `deputy worker` running?)',
          ]),
      },
    );
    await busy;
    // Closed first: the last lines must not leave a prompt behind for the shell to print after.
    screen.close();
    if (finished === null) {
      screen.print([
        `detached; session ${sessionId} runs on. Come back with: deputy chat --attach ${sessionId}`,
      ]);
      return EXIT.ok;
    }
    screen.print([`session ${sessionId} ended (${finished.result.status})`]);
    return finished.result.status === 'failed' ? EXIT.failed : EXIT.ok;
  } finally {
    process.off('SIGINT', detach);
    process.off('SIGHUP', detach);
    screen.close();
  }
}

async function handle(
  context: ChatContext,
  command: ChatCommand,
  pending: PendingCards,
  screen: Screen,
  detach: () => void,
): Promise<void> {
  const { sessions, delegations, sessionId } = context;
  try {
    switch (command.kind) {
      case 'nothing':
        break;
      case 'message':
        await sessions.send(
          sessionId,
          messageRequest({ text: command.text, from: null }, context.masker),
        );
        break;
      case 'decide': {
        const outcome = await decideAs(delegations, localOperator(), command.cardId, {
          decision: command.decision,
          ...(command.reason === undefined ? {} : { reason: command.reason }),
          ...(command.answer === undefined ? {} : { answer: command.answer }),
          ...(command.allow === undefined ? {} : { allow: command.allow }),
        });
        // Applied: the stream prints the decision. Recorded: say it waits for a worker.
        if (isRecorded(outcome)) {
          pending.decided(outcome.card);
          screen.print([`card ${outcome.card.id} ${command.decision} recorded`, outcome.message]);
        } else pending.decided(outcome);
        break;
      }
      case 'cards': {
        const cards = await sessions.cards(sessionId);
        for (const card of cards) pending.open(card);
        if (cards.length === 0) screen.print(['no pending cards']);
        for (const card of cards) screen.print(chatCardLines(card));
        break;
      }
      case 'stop':
        await sessions.stop(sessionId);
        screen.print([
          `stopping session ${sessionId}; its tasks stop and pending cards are denied`,
        ]);
        break;
      case 'detach':
        detach();
        break;
      case 'help':
        screen.print(CHAT_HELP.split('\n'));
        break;
      case 'error':
        screen.print([command.message]);
        break;
    }
  } catch (error) {
    // A refused message or decision is news for the user, not the end of the chat.
    screen.print([`deputy: ${describeFailure(error).message}`]);
  }
  screen.setPrompt(promptFor(pending.ids()));
}

/** A card as the chat shows it: who wants what, why, and how to answer it here. */
export function chatCardLines(card: ApprovalCard): string[] {
  const [what = '', why = ''] = cardLines(card);
  const from = card.delegationId === card.session ? 'the session' : `task ${card.delegationId}`;
  return [
    `approval needed: ${what}`,
    why,
    `  from ${from}; answer: y / n / n <reason>, or /approve ${card.id}, /deny ${card.id} [reason]`,
  ];
}

export function chatEventLines(event: DelegationEvent): string[] {
  switch (event.type) {
    case 'card-opened':
      return chatCardLines(event.card);
    case 'message':
      return [`(working on: ${oneLine(event.text, 120)})`];
    default:
      return eventLines(event);
  }
}

/**
 * Prints above the line being typed: clears it, writes, and draws the prompt again with what
 * the user had typed so far, so output arriving mid-typing never garbles the input. Without a
 * terminal (input or output redirected) there is no line to protect and no prompt to draw.
 */
class Screen {
  private closed = false;
  private readonly tty: boolean;

  constructor(
    readonly readline: Interface,
    private readonly output: NodeJS.WritableStream,
    tty: boolean,
  ) {
    this.tty = tty;
    readline.on('close', () => (this.closed = true));
  }

  print(lines: string[]): void {
    this.clearInputLine();
    this.output.write(`${lines.join('\n')}\n`);
    this.redraw();
  }

  setPrompt(prompt: string): void {
    if (this.closed || this.readline.getPrompt() === prompt) return;
    this.readline.setPrompt(prompt);
    this.clearInputLine();
    this.redraw();
  }

  close(): void {
    if (!this.closed) this.readline.close();
  }

  private clearInputLine(): void {
    if (!this.tty) return;
    clearLine(this.output, 0);
    cursorTo(this.output, 0);
  }

  private redraw(): void {
    if (this.tty && !this.closed) this.readline.prompt(true);
  }
}
