/**
 * `deputy session start|send|list|show|stop|follow`, and `deputy chat` (chat.ts). A
 * session is a workflow: every command here reads or signals it through the Sessions facade,
 * so any terminal can follow or steer any session.
 */
import { Option, type Command } from 'commander';
import {
  DELEGATION_STATUSES,
  type ApprovalCard,
  type DelegationStatus,
} from '../../shared/delegation.js';
import type { SessionState } from '../../shared/session.js';
import type { SessionSummary } from '../../temporal/sessions/facade.js';
import { secretMaskerFor } from '../../secrets/masker.js';
import { ANONYMOUS_CALLER } from '../../shared/caller.js';
import { sessionStart } from '../../temporal/start-requests.js';
import { messageRequest } from '../../asks/follow-up-requests.js';
import { registerChatCommand } from './chat.js';
import { withSessions } from '../context.js';
import type { Run } from '../exit-codes.js';
import { EXIT } from '../exit-codes.js';
import { cardLines, eventLines, oneLine, table } from '../format.js';
import { printJson } from '../io.js';
import { PendingCards, followSession, lastSeqOf, trackCards } from './session-stream.js';

interface JsonOption {
  json?: boolean;
}

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per command, each short.
export function registerSessionCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  const session = program
    .command('session')
    .description('sessions: a main agent that takes messages and hands work to subagents');

  session
    .command('start')
    .description('start a session and print its id')
    .argument('[agent]', 'main agent (default: the built-in main)')
    .argument('[message...]', 'the first message (default: none; send one later)')
    .option('--id <sessionId>', 'the session id (default: generated)')
    .option('--unattended', 'no human will answer: every approval becomes a denial')
    .option('--json', 'machine-readable output')
    .action(
      async (
        agent: string | undefined,
        words: string[],
        options: JsonOption & { id?: string; unattended?: boolean },
        command: Command,
      ) =>
        run(command, (io) =>
          withSessions(command, async (sessions, _delegations, config) => {
            const message = words.join(' ');
            const started = await sessions.start(
              sessionStart(
                {
                  agent,
                  message,
                  sessionId: options.id,
                  unattended: options.unattended,
                  caller: ANONYMOUS_CALLER,
                },
                secretMaskerFor(config),
              ),
            );
            if (options.json) printJson(io, started);
            else {
              io.out(started.sessionId);
              io.err(`chat: deputy chat --attach ${started.sessionId}`);
              io.err(`follow: deputy session follow ${started.sessionId}`);
            }
            return EXIT.ok;
          }),
        ),
    );

  session
    .command('send')
    .description('send a message to a running session')
    .argument('<sessionId>', 'session id')
    .argument('<message...>', 'the message')
    .action(async (sessionId: string, words: string[], _options: unknown, command: Command) =>
      run(command, (io) =>
        withSessions(command, async (sessions, _delegations, config) => {
          await sessions.send(
            sessionId,
            messageRequest({ text: words.join(' '), from: null }, secretMaskerFor(config)),
          );
          io.out(`sent to ${sessionId}`);
          return EXIT.ok;
        }),
      ),
    );

  session
    .command('list')
    .description('sessions, newest first')
    .option('--agent <agent>', 'only this main agent')
    .addOption(new Option('--status <status>', 'only this status').choices(DELEGATION_STATUSES))
    .option('--json', 'machine-readable output')
    .action(
      async (
        options: JsonOption & { agent?: string; status?: DelegationStatus },
        command: Command,
      ) =>
        run(command, (io) =>
          withSessions(command, async (sessions) => {
            const rows = await sessions.list({
              ...(options.agent === undefined ? {} : { agent: options.agent }),
              ...(options.status === undefined ? {} : { status: options.status }),
            });
            if (options.json) printJson(io, rows);
            else for (const line of sessionTable(rows)) io.out(line);
            return EXIT.ok;
          }),
        ),
    );

  session
    .command('show')
    .description("a session's state: status, tasks and pending cards (its tasks' included)")
    .argument('<sessionId>', 'session id')
    .option('--json', 'machine-readable output')
    .action(async (sessionId: string, options: JsonOption, command: Command) =>
      run(command, (io) =>
        withSessions(command, async (sessions) => {
          const state = await sessions.get(sessionId);
          const cards = await sessions.cards(sessionId);
          if (options.json) printJson(io, { ...state, cards });
          else for (const line of sessionLines(state, cards)) io.out(line);
          return EXIT.ok;
        }),
      ),
    );

  session
    .command('stop')
    .description('stop a session: its tasks stop and every pending card is denied')
    .argument('<sessionId>', 'session id')
    .option('--json', 'machine-readable output')
    .action(async (sessionId: string, options: JsonOption, command: Command) =>
      run(command, (io) =>
        withSessions(command, async (sessions) => {
          const outcome = await sessions.stop(sessionId);
          if (options.json) printJson(io, outcome);
          else if ('stopped' in outcome) {
            io.out(`stopping ${sessionId}; its tasks stop and pending cards are denied`);
          } else io.out(`${sessionId} had already ended (${outcome.status}); nothing to stop`);
          return EXIT.ok;
        }),
      ),
    );

  session
    .command('follow')
    .description(
      "print a session's stream until it ends (Ctrl-C leaves it running); pending cards first",
    )
    .argument('<sessionId>', 'session id')
    .option('--all', 'print the stream from its beginning, not from now')
    .action(async (sessionId: string, options: { all?: boolean }, command: Command) =>
      run(command, (io) =>
        withSessions(command, async (sessions) => {
          const pending = new PendingCards();
          const afterSeq = options.all ? 0 : await lastSeqOf(sessions, sessionId);
          if (!options.all) {
            for (const card of await sessions.cards(sessionId)) {
              if (pending.open(card)) io.out(['pending:', ...cardLines(card)].join('\n  '));
            }
          }
          const abort = new AbortController();
          const onInterrupt = () => abort.abort();
          process.once('SIGINT', onInterrupt);
          try {
            const finished = await followSession(
              sessions,
              sessionId,
              (event) => {
                if (trackCards(pending, event)) return;
                for (const line of eventLines(event)) io.out(line);
              },
              {
                afterSeq,
                signal: abort.signal,
                onWaiting: () =>
                  io.err(
                    'waiting for a worker to pick the session up (is `deputy dev` or `deputy worker` running?)',
                  ),
              },
            );
            if (finished === null) {
              io.err(`detached; the session runs on: deputy session follow ${sessionId}`);
              return EXIT.ok;
            }
            return finished.result.status === 'failed' ? EXIT.failed : EXIT.ok;
          } finally {
            process.off('SIGINT', onInterrupt);
          }
        }),
      ),
    );

  registerChatCommand(program, run);
}

export function sessionTable(rows: SessionSummary[]): string[] {
  if (rows.length === 0) return ['no sessions'];
  const header = ['SESSION', 'AGENT', 'STATUS', 'CARDS', 'STARTED', 'FIRST MESSAGE'];
  const cells = rows.map((row) => [
    row.sessionId,
    row.agent ?? '?',
    row.status,
    String(row.pendingCards),
    row.startedAt.replace('T', ' ').slice(0, 19),
    oneLine(row.firstMessage ?? '', 60),
  ]);
  return table([header, ...cells]);
}

export function sessionLines(state: SessionState, cards: ApprovalCard[]): string[] {
  const lines = [
    `session ${state.delegationId}`,
    `  workflow: ${state.workflowId}`,
    `  agent:    ${state.agent}${state.model ? ` (model ${state.model})` : ''}`,
    `  status:   ${state.status}`,
    `  rounds:   ${state.roundsUsed}${state.maxTurns ? ` of ${state.maxTurns}` : ''}`,
  ];
  if (state.queuedMessages > 0) lines.push(`  queued messages: ${state.queuedMessages}`);
  if (state.tasks.length === 0) lines.push('  tasks: none');
  else {
    lines.push('  tasks:');
    const header = ['TASK', 'AGENT', 'STATUS', 'ROUNDS', 'CARDS', 'MODE', 'DESCRIPTION'];
    const cells = state.tasks.map((task) => [
      task.taskId,
      task.agent,
      task.result?.status ?? task.status,
      String(task.roundsUsed),
      String(task.pendingCards),
      task.background ? 'background' : 'foreground',
      oneLine(task.description, 60),
    ]);
    lines.push(...table([header, ...cells]).map((line) => `    ${line}`));
  }
  if (cards.length === 0) lines.push('  pending cards: none');
  else {
    lines.push(`  pending cards: ${cards.length}`);
    for (const card of cards) lines.push(...cardLines(card).map((line) => `    ${line}`));
  }
  if (state.result)
    lines.push(
      `  ended: ${state.result.status}${state.result.notice ? ` (${state.result.notice})` : ''}`,
    );
  return lines;
}
