/**
 * What a line typed into `deputy chat` means. Pure, so every rule below is unit-tested
 * (test/cli/chat-input.test.ts) without a terminal.
 *
 * - With exactly one card pending, `y` / `yes` approves it, `n` / `no` denies it and
 *   `n <reason>` denies it with a reason the model is told. With several pending, `y` and `n`
 *   are refused (which card would it be?): name the card with `/approve` or `/deny`.
 * - `/approve [cardId] [reason]`, `/deny [cardId] [reason]`: the card id may be left out when
 *   one card is pending. `/allow [cardId]` approves and allows the same calls for the rest of the
 *   delegation; `/answer [cardId] <text>` answers in the tool's place (the tool does not run).
 * - `/cards` lists the pending cards, `/stop` stops the session, `/detach` (or Ctrl-D, Ctrl-C)
 *   leaves it running, `/help` prints the help.
 * - Any other line is a message to the session; an empty line does nothing.
 */
import { delegationIdOfCard } from '../../shared/delegation.js';

export type ChatCommand =
  | { kind: 'nothing' }
  | { kind: 'message'; text: string }
  | {
      kind: 'decide';
      cardId: string;
      decision: 'approve' | 'deny' | 'answer';
      reason?: string;
      /** `/answer`: the text in the tool's place. */
      answer?: string;
      /** `/allow`: approve, and the same calls for the rest of the delegation (or session). */
      allow?: 'delegation' | 'session';
    }
  | { kind: 'cards' }
  | { kind: 'stop' }
  | { kind: 'detach' }
  | { kind: 'help' }
  /** The line cannot be acted on; `message` says why and what to type instead. */
  | { kind: 'error'; message: string };

export const CHAT_HELP = `While a session runs, type a message and press Enter to send it.
Approval cards (the session's own and its tasks') are printed as they open. To answer:
  y | yes             approve the pending card (when exactly one is pending)
  n | no              deny it
  n <reason>          deny it and tell the model why
  /approve [cardId] [reason]   approve a card (the id may be left out when one is pending)
  /deny [cardId] [reason]      deny a card
  /allow [cardId]              approve it, and the same calls for the rest of its delegation
  /allow --session [cardId]    the same for the rest of the session (the session and its tasks)
  /answer [cardId] <text>      answer in the tool's place: the tool does not run
  /cards              list the pending cards
  /stop               stop the session (its tasks stop and pending cards are denied)
  /detach, Ctrl-D, Ctrl-C      leave; the session runs on (come back with deputy chat --attach <id>)
  /help               this help`;

/** Parses one input line against the ids of the cards pending now, oldest first. */
export function parseChatLine(line: string, pending: readonly string[]): ChatCommand {
  const text = line.trim();
  if (text === '') return { kind: 'nothing' };
  const answer = /^(y|yes|n|no)(?:\s+(.*))?$/i.exec(text);
  // `no <words>` stays a message ("no, use the other file" is something to tell the agent);
  // only the single letter takes a reason.
  if (answer && (answer[2] === undefined || answer[1]!.toLowerCase() === 'n')) {
    const decision = answer[1]!.toLowerCase().startsWith('y') ? 'approve' : 'deny';
    if (decision === 'approve' && answer[2] !== undefined) return { kind: 'message', text };
    return decideSingle(pending, decision, answer[2]?.trim());
  }
  if (!text.startsWith('/')) return { kind: 'message', text };

  const [name = '', ...rest] = text.slice(1).split(/\s+/);
  switch (name.toLowerCase()) {
    case 'approve':
    case 'deny':
      return decideNamed(pending, name.toLowerCase() as 'approve' | 'deny', rest);
    case 'allow': {
      const session = rest.includes('--session');
      const words = rest.filter((word) => word !== '--session');
      const command = decideNamed(pending, 'approve', words);
      if (command.kind !== 'decide') return command;
      return { ...command, allow: session ? 'session' : 'delegation' };
    }
    case 'answer':
      return answerNamed(pending, rest);
    case 'cards':
      return { kind: 'cards' };
    case 'stop':
      return { kind: 'stop' };
    case 'detach':
    case 'quit':
    case 'exit':
      return { kind: 'detach' };
    case 'help':
      return { kind: 'help' };
    default:
      return { kind: 'error', message: `unknown command /${name}; /help lists them` };
  }
}

function decideSingle(
  pending: readonly string[],
  decision: 'approve' | 'deny',
  reason: string | undefined,
): ChatCommand {
  if (pending.length === 0) return { kind: 'error', message: 'no card is pending' };
  if (pending.length > 1) {
    return {
      kind: 'error',
      message: `${pending.length} cards are pending (${pending.join(', ')}): answer one with /approve <cardId> or /deny <cardId> [reason]`,
    };
  }
  return withReason({ kind: 'decide', cardId: pending[0]!, decision }, reason);
}

function decideNamed(
  pending: readonly string[],
  decision: 'approve' | 'deny',
  words: string[],
): ChatCommand {
  const [first, ...others] = words;
  // A first word that is a card id names the card; otherwise the words are the reason.
  if (first !== undefined && (pending.includes(first) || delegationIdOfCard(first) !== null)) {
    return withReason({ kind: 'decide', cardId: first, decision }, others.join(' '));
  }
  return decideSingle(pending, decision, words.join(' '));
}

/** `/answer [cardId] <text>`: the text is required (it becomes the tool's result). */
function answerNamed(pending: readonly string[], words: string[]): ChatCommand {
  const [first, ...others] = words;
  const named =
    first !== undefined && (pending.includes(first) || delegationIdOfCard(first) !== null);
  const text = (named ? others : words).join(' ').trim();
  if (text === '') {
    return { kind: 'error', message: "/answer needs the text the model reads in the tool's place" };
  }
  if (named) return { kind: 'decide', cardId: first, decision: 'answer', answer: text };
  const single = decideSingle(pending, 'approve', undefined);
  return single.kind === 'decide'
    ? { kind: 'decide', cardId: single.cardId, decision: 'answer', answer: text }
    : single;
}

function withReason(
  command: Extract<ChatCommand, { kind: 'decide' }>,
  reason: string | undefined,
): ChatCommand {
  return reason === undefined || reason.trim() === ''
    ? command
    : { ...command, reason: reason.trim() };
}

/** The prompt: the question about the single pending card, a count of several, or `> `. */
export function promptFor(pending: readonly string[]): string {
  if (pending.length === 1) return `approve card ${pending[0]}? [y/n/n <reason>] `;
  if (pending.length > 1) return `${pending.length} cards pending (/approve <id>, /deny <id>) > `;
  return '> ';
}
