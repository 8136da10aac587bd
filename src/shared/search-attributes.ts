import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes on every delegation (RUN-8), so the Temporal UI can list, say,
 * every parked delegation of one agent. The dev-server launcher registers these at start.
 */
export const AGENT_ATTRIBUTE = defineSearchAttributeKey('DeputyAgent', SearchAttributeType.KEYWORD);
export const SESSION_ATTRIBUTE = defineSearchAttributeKey(
  'DeputySession',
  SearchAttributeType.KEYWORD,
);
export const STATUS_ATTRIBUTE = defineSearchAttributeKey(
  'DeputyStatus',
  SearchAttributeType.KEYWORD,
);
export const DELEGATION_ID_ATTRIBUTE = defineSearchAttributeKey(
  'DeputyDelegationId',
  SearchAttributeType.KEYWORD,
);
export const PENDING_CARDS_ATTRIBUTE = defineSearchAttributeKey(
  'DeputyPendingCards',
  SearchAttributeType.INT,
);

export const CUSTOM_SEARCH_ATTRIBUTES = [
  AGENT_ATTRIBUTE,
  SESSION_ATTRIBUTE,
  STATUS_ATTRIBUTE,
  DELEGATION_ID_ATTRIBUTE,
  PENDING_CARDS_ATTRIBUTE,
] as const;
