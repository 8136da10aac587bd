/**
 * What `deputy status` says about steering and revival: where a fork or a resumed
 * delegation came from, and the messages sent to it, delivered or still waiting.
 */
import type { DelegationDetail } from '../../temporal/delegations/types.js';

const TEXT_WIDTH = 100;

export function steeringLines(state: DelegationDetail): string[] {
  const lines: string[] = [];
  const { origin } = state;
  if (origin !== undefined) {
    lines.push(
      origin.resumed === true
        ? `  resumed from: ${origin.delegationId} (after its round ${origin.fromRound})`
        : `  forked from: ${origin.delegationId} (after its round ${origin.fromRound})`,
    );
  }
  const messages = state.messages ?? [];
  if (messages.length === 0) return lines;
  lines.push(`  messages: ${messages.length}`);
  for (const message of messages) {
    const when =
      message.deliveredBeforeRound === null
        ? 'waiting for the next round'
        : `before round ${message.deliveredBeforeRound}`;
    const from = message.from === null ? '' : ` from ${message.from}`;
    lines.push(`    ${message.seq}${from}, ${when}: ${clip(message.text)}`);
  }
  return lines;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TEXT_WIDTH ? `${flat.slice(0, TEXT_WIDTH - 1)}…` : flat;
}
