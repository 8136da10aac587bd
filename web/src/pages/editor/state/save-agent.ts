/**
 * A save, step by step: the check about what is on screen, what that check lets be saved (the
 * form's fields, or what the typed YAML parses to), and the create or update request. A save is
 * refused while a declared name resolves to nothing; the server's 422 and 409 come back as the
 * issues to show on their fields.
 */
import { ApiError, messageOf, type ApiIssue } from '../../../api/client';
import { createAgent, updateAgent, type WritableLevel } from '../../../api/editor';
import type { AgentDetail } from '../../../api/types';
import { hasUnresolved, isUnreadable, placeProblems } from '../diagnostics';
import {
  createBody,
  fieldsOf,
  formOf,
  isEmptyUpdate,
  updateBody,
  type Fields,
} from '../form-model';
import type { Checked } from '../use-agent-check';
import { maxTokensOf } from '../yaml-source';
import { checkedLists, namesOf } from './checked-lists';

export const UNRESOLVED_REFUSAL = 'Remove the names that resolve to nothing first';

export type SaveOutcome =
  | { kind: 'saved'; agent: AgentDetail | null }
  | { kind: 'refused'; message: string; issues?: ApiIssue[] }
  | { kind: 'failed'; message: string };

export interface SaveInput {
  /** The check's answer about what is on screen now. */
  now: () => Promise<Checked>;
  fields: Fields;
  level: WritableLevel;
  /** The YAML text once the user typed in it: then it, not the form, is what is saved. */
  source: string | null;
  /** The stored agent's fields (edit): what an update is the difference from. */
  original: Fields | null;
}

/** What a save sends: the fields, and the max tokens a typed YAML writes. */
interface Planned {
  next: Fields;
  maxTokens: number | undefined;
}

export async function saveAgent(input: SaveInput): Promise<SaveOutcome> {
  let checked: Checked;
  try {
    checked = await input.now();
  } catch (error) {
    const message =
      (error as Error).name === 'AbortError'
        ? 'The definition changed while it was checked: save again.'
        : `The definition could not be checked: ${messageOf(error)}`;
    return { kind: 'refused', message };
  }
  const planned = plannedSave(checked, input);
  if ('refusal' in planned) return { kind: 'refused', message: planned.refusal };
  try {
    return { kind: 'saved', agent: await send(planned, input) };
  } catch (error) {
    return refusedBy(error);
  }
}

/** What the check lets be saved, or why nothing is. */
function plannedSave(
  checked: Checked,
  { fields, level, source, original }: SaveInput,
): Planned | { refusal: string } {
  const { answer } = checked;
  let next = fields;
  let maxTokens: number | undefined;
  if (source !== null) {
    if (isUnreadable(answer.diagnostics) || !answer.valid) {
      return { refusal: 'The YAML has problems a save would refuse: see the YAML tab.' };
    }
    next = fieldsOf(formOf(answer.agent, level));
    maxTokens = maxTokensOf(source);
    if (original !== null && next.name !== original.name) {
      return {
        refusal: `A saved agent keeps its name: write name: ${original.name} (duplicate it to rename).`,
      };
    }
  }
  if (hasUnresolved(placeProblems(answer.diagnostics, [], checkedLists(checked)), namesOf(next))) {
    return { refusal: UNRESOLVED_REFUSAL };
  }
  return { next, maxTokens };
}

/** The saved agent, or null when an edit changed nothing (nothing is sent then). */
async function send(
  { next, maxTokens }: Planned,
  { level, original }: SaveInput,
): Promise<AgentDetail | null> {
  const written = maxTokens === undefined ? {} : { maxTokens };
  if (original === null) {
    const created = await createAgent({ ...createBody(next, level), ...written });
    return created.agent;
  }
  const body = { ...updateBody(original, next), ...written };
  if (isEmptyUpdate(body)) return null;
  const updated = await updateAgent(original.name, level, body);
  return updated.agent;
}

function refusedBy(error: unknown): SaveOutcome {
  if (error instanceof ApiError && error.status === 422) {
    const issues = error.issues.length > 0 ? error.issues : [{ path: '', message: error.message }];
    return {
      kind: 'refused',
      message: `The server refused the save: ${error.message}. Each problem is shown on its field.`,
      issues,
    };
  }
  if (error instanceof ApiError && error.status === 409) {
    return {
      kind: 'refused',
      message: `The server refused the save: ${error.message}`,
      issues: [{ path: 'name', message: error.message }],
    };
  }
  return { kind: 'failed', message: messageOf(error) };
}
