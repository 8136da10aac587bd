/**
 * The options of `deputy approve` beyond approve itself: `--allow-rest` records a
 * grant for the rest of the delegation, `--allow-session` one for the rest of its session, `--args '<json>'` runs the call with edited arguments.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { CardDecisionOptions } from '../../client/deputy-client.js';

export interface DecideOptions {
  json?: boolean;
  reason?: string;
  answer?: string;
  allowRest?: boolean;
  allowSession?: boolean;
  args?: Record<string, unknown>;
}

export function addApproveOptions(command: Command): void {
  command
    .option(
      '--allow-rest',
      'also allow calls of the same tool and scope without a card for the rest of this delegation',
    )
    .option(
      '--allow-session',
      "also allow them for the rest of the card's session: its own calls and every Task child",
    )
    .option(
      '--args <json>',
      'run the call with these arguments instead (a JSON object; never wider than the card)',
      parseArguments,
    );
}

/** What the decision says besides its kind, as the client and the facade take it. */
export function decisionFields(options: DecideOptions): CardDecisionOptions {
  return {
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    ...(options.answer === undefined ? {} : { answer: options.answer }),
    ...allowField(options),
    ...(options.args === undefined ? {} : { arguments: options.args }),
  };
}

/** `--allow-session`: the rest of the session; `--allow-rest`: of the delegation. */
function allowField(options: DecideOptions): Pick<CardDecisionOptions, 'allow'> {
  if (options.allowSession === true) return { allow: 'session' };
  return options.allowRest === true ? { allow: 'delegation' } : {};
}

function parseArguments(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`--args is not JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new InvalidArgumentError('--args must be a JSON object of the tool’s arguments');
  return parsed as Record<string, unknown>;
}
