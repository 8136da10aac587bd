import type { Caller } from '../shared/caller.js';

/** What every route can read from the request context: the authenticated caller. */
export type AppEnv = { Variables: { caller: Caller } };
