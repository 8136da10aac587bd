import {
  defineSearchAttributeKey,
  SearchAttributeType,
  type SearchAttributePair,
} from '@temporalio/common';

/**
 * Custom search attributes on every delegation, so the Temporal UI can list, say,
 * every parked delegation of one agent. The dev-server launcher registers these at start.
 */

const keyword = (name: string) => defineSearchAttributeKey(name, SearchAttributeType.KEYWORD);

export const AGENT_ATTRIBUTE = keyword('DeputyAgent');
export const SESSION_ATTRIBUTE = keyword('DeputySession');
export const STATUS_ATTRIBUTE = keyword('DeputyStatus');
export const DELEGATION_ID_ATTRIBUTE = keyword('DeputyDelegationId');
/** On a delegation a session started with `Task`: the session's id. */
export const PARENT_ATTRIBUTE = keyword('DeputyParent');
export const PENDING_CARDS_ATTRIBUTE = defineSearchAttributeKey(
  'DeputyPendingCards',
  SearchAttributeType.INT,
);

/** Input + output tokens of a delegation's model calls so far, as of its last status change. */
export const TOKENS_ATTRIBUTE = defineSearchAttributeKey('DeputyTokens', SearchAttributeType.INT);

/** On a fork: the delegation id it was forked from. */
export const FORKED_FROM_ATTRIBUTE = keyword('DeputyForkedFrom');

/** On a run a Temporal Schedule started (src/schedules): the schedule's name. */
export const SCHEDULE_ATTRIBUTE = keyword('DeputySchedule');

/**
 * While parked: when its oldest pending card opened, so "parked for over an hour" is
 * one query. Absent while the run is not parked.
 */
export const PARKED_SINCE_ATTRIBUTE = defineSearchAttributeKey(
  'DeputyParkedSince',
  SearchAttributeType.DATETIME,
);

export const CUSTOM_SEARCH_ATTRIBUTES = [
  AGENT_ATTRIBUTE,
  SESSION_ATTRIBUTE,
  STATUS_ATTRIBUTE,
  DELEGATION_ID_ATTRIBUTE,
  PENDING_CARDS_ATTRIBUTE,
  PARENT_ATTRIBUTE,
  TOKENS_ATTRIBUTE,
  FORKED_FROM_ATTRIBUTE,
  SCHEDULE_ATTRIBUTE,
  PARKED_SINCE_ATTRIBUTE,
] as const;

/** Temporal's spelling of each type, as `temporal operator search-attribute create` takes it. */
export const SEARCH_ATTRIBUTE_TYPE_NAMES: Record<
  (typeof CUSTOM_SEARCH_ATTRIBUTES)[number]['type'],
  string
> = { KEYWORD: 'Keyword', INT: 'Int', DATETIME: 'Datetime' };

/**
 * Every attribute as a delegation starts: running, no card pending. From then on the workflow
 * updates status and pending cards itself; agent, session and id never change.
 */
export function initialSearchAttributes(start: {
  agent: string;
  session: string;
  delegationId: string;
  /** The session that started it with `Task`, for a child. */
  parent?: string;
  /** The delegation it was forked from, for a fork. */
  forkedFrom?: string;
}): SearchAttributePair[] {
  return [
    { key: AGENT_ATTRIBUTE, value: start.agent },
    { key: SESSION_ATTRIBUTE, value: start.session },
    { key: STATUS_ATTRIBUTE, value: 'running' },
    { key: DELEGATION_ID_ATTRIBUTE, value: start.delegationId },
    { key: PENDING_CARDS_ATTRIBUTE, value: 0 },
    ...(start.parent === undefined ? [] : [{ key: PARENT_ATTRIBUTE, value: start.parent }]),
    ...(start.forkedFrom === undefined
      ? []
      : [{ key: FORKED_FROM_ATTRIBUTE, value: start.forkedFrom }]),
  ];
}
