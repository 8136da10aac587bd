/** Failure types (`ApplicationFailure.type`) the workflow and clients tell apart. */
export const FAILURE_TYPES = {
  /** A delegation's own `cardTimeout` is not a duration. Not retryable. */
  cardTimeoutInvalid: 'CardTimeoutInvalid',
  /** A caller's permission mode is not one of Claude Code's. Not retryable. */
  callerModeInvalid: 'CallerModeInvalid',
  /** No definition has the requested name. Not retryable. */
  agentNotFound: 'AgentNotFound',
  /** The model handle cannot become an adapter (unknown handle, missing key). Not retryable. */
  modelConfig: 'ModelConfigError',
  /** The provider failed; retryable or not as the provider's answer says. */
  modelCall: 'ModelCallError',
  /** A transcript blob is missing or corrupt (workers not sharing the data directory). */
  transcriptMissing: 'TranscriptMissing',
  /**
   * The capability snapshot a call names by reference is missing or corrupt in the blob store;
   * the workflow sends it whole instead. Not retryable.
   */
  snapshotMissing: 'SnapshotMissing',
  /** decideCard update rejections: no such card / decided before / not approve or deny. */
  cardUnknown: 'CardUnknown',
  cardAlreadyDecided: 'CardAlreadyDecided',
  cardDecisionInvalid: 'CardDecisionInvalid',
  /** The delegation itself ended as failed; its state query still answers. */
  delegationFailed: 'DelegationFailed',
} as const;
