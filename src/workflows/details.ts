/**
 * What the Temporal UI shows under a run's summary: its `currentDetails` (Markdown), rewritten
 * wherever the run's status or its work changes: the round it is in and what it waits for, the
 * cards it is parked on, how it finished; a session's message wait and its children. Sandbox
 * code, but no command: the details are workflow state the built-in `__temporal_workflow_metadata`
 * query answers, so calls here may come and go without a patch and replay as recorded.
 */
import { setCurrentDetails } from '@temporalio/workflow';
import type { ApprovalCard, DelegationResult, SessionTask } from '../shared/delegation.js';
import { oneLine } from '../shared/workflow-contract/workflow-summary.js';
import type { DelegationRun } from './delegation-run.js';

/** Longest argument glimpse on a parked card's line: enough to tell which file, which command. */
const CARD_ARGUMENTS_CHARS = 80;
/** Cards and children listed one a line; more are counted. Details stay small. */
const LISTED = 10;

/** What a session adds to its run's details (session.ts registers it). */
export interface SessionView {
  /** Its children, in the order they started. */
  tasks(): SessionTask[];
  /** Messages received and not yet taken up. */
  queuedMessages(): number;
  /** The round the message being answered started at; null between messages. */
  messageStartedAtRound(): number | null;
}

const sessions = new WeakMap<DelegationRun, SessionView>();
/** What a running run does now, with the round it belongs to. */
const doing = new WeakMap<DelegationRun, { round: number; what: string }>();

/** Marks `run` as a session's, so its details add the message wait and its children. */
export function showAsSession(run: DelegationRun, view: SessionView): void {
  sessions.set(run, view);
  showDetails(run);
}

/** What a running run does now ("waiting for the model", "running `read`"), in round `round`. */
export function showDoing(run: DelegationRun, round: number, what: string): void {
  doing.set(run, { round, what });
  showDetails(run);
}

/** Rewrites the details from the run's status; called wherever it changes (visibility.ts). */
export function showDetails(run: DelegationRun): void {
  // What it did belongs to the stretch of running that a park, a rest or the end closed.
  if (run.status !== 'running') doing.delete(run);
  setCurrentDetails(detailsOf(run));
}

function detailsOf(run: DelegationRun): string {
  const session = sessions.get(run);
  const tasks = session === undefined ? [] : tasksOf(session);
  // Markdown: a blank line keeps the children's block from running into the headline.
  return tasks.length === 0
    ? headline(run, session)
    : `${headline(run, session)}\n\n${tasks.join('\n')}`;
}

function headline(run: DelegationRun, session: SessionView | undefined): string {
  switch (run.status) {
    case 'running':
      return running(run, session);
    case 'parked':
      return parked(run, session);
    case 'idle': {
      const queued = session?.queuedMessages() ?? 0;
      return `**idle**, waiting for a message${queued === 0 ? '' : ` (${queued} queued)`}`;
    }
    default:
      return finished(run);
  }
}

function running(run: DelegationRun, session: SessionView | undefined): string {
  const now = doing.get(run);
  const round = now?.round ?? run.roundsUsed;
  const what = now === undefined ? '' : `: ${now.what}`;
  return `**running** ${roundOf(run, round, session)}${what}`;
}

/**
 * "round 3 of 20": a delegation counts from its start, a session from the message it answers
 * (its `maxTurns` applies per message).
 */
function roundOf(run: DelegationRun, round: number, session: SessionView | undefined): string {
  const since = session?.messageStartedAtRound() ?? 0;
  const max = run.resolved?.snapshot.limits.maxTurns;
  const shown = Math.max(round - since, 1);
  return max === undefined ? `round ${shown}` : `round ${shown} of ${max}`;
}

function parked(run: DelegationRun, session: SessionView | undefined): string {
  const cards = run.pendingCards();
  const head = `**parked** in ${roundOf(run, run.roundsUsed, session)} on ${plural(cards.length, 'card')}, waiting for a decision:`;
  return [head, ...listed(cards.map(cardLine), 'more cards')].join('\n');
}

/** "- `write` `path=notes.md` (card d-1.1), waiting since 2026-12-02 16:20:03 UTC" */
function cardLine(card: ApprovalCard): string {
  const args = Object.entries(card.arguments)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  // In a code span: arguments are the model's text, and the UI renders details as Markdown.
  const glimpse =
    args === '' ? '' : ` \`${oneLine(args, CARD_ARGUMENTS_CHARS).replaceAll('`', "'")}\``;
  const deadline = card.deadline === undefined ? '' : `, deadline ${utc(card.deadline)}`;
  return `- \`${card.tool}\`${glimpse} (card ${card.id}), waiting since ${utc(card.openedAt)}${deadline}`;
}

function finished(run: DelegationRun): string {
  // Only at the end: state() copies the transcript's summary.
  const result: DelegationResult | null = run.state().result;
  if (result === null) return `**${run.status}**`;
  const denied = [...new Set((result.deniedCalls ?? []).map((call) => call.tool))];
  const notice = result.notice === null ? '' : `\n\n${oneLine(result.notice)}`;
  return `**finished**: ${result.status}, ${plural(result.roundsUsed, 'round')}, denied: ${denied.length === 0 ? 'none' : denied.join(', ')}${notice}`;
}

/** A session's children: the running ones one a line, the finished ones counted. */
function tasksOf(session: SessionView): string[] {
  const tasks = session.tasks();
  if (tasks.length === 0) return [];
  const open = tasks.filter((task) => task.result === null);
  const done = tasks.length - open.length;
  const lines = open.map(
    (task) =>
      `- ${task.taskId} \`${task.agent}\` ${oneLine(task.description, 60)}: ${task.status}${task.pendingCards === 0 ? '' : ` (${plural(task.pendingCards, 'card')})`}${task.background ? ', background' : ''}`,
  );
  const head = `Tasks: ${open.length} open, ${done} finished${open.length === 0 ? '' : ':'}`;
  return [head, ...listed(lines, 'more open')];
}

function listed(lines: string[], more: string): string[] {
  return lines.length <= LISTED
    ? lines
    : [...lines.slice(0, LISTED), `- … ${lines.length - LISTED} ${more}`];
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** An ISO time as the UI's reader takes it in: "2026-12-02 16:20:03 UTC". */
function utc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
