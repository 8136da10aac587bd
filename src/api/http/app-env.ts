import type { Caller } from '../../shared/caller.js';

/**
 * What every route can read from the request context: the authenticated caller; and what the
 * server that received the request says of it (`localOperator`: it came over the local socket).
 */
export type AppEnv = {
  Bindings: { localOperator?: boolean };
  Variables: { caller: Caller };
};
