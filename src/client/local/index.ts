/**
 * `deputy/client/local`: the DeputyClient for code that runs beside the workers,
 * `createLocalDeputyClient()`, over a Temporal connection with the API's app served in-process.
 * It lives apart from `deputy/client` because it loads the server (the app, the definition
 * registry, the Temporal client): a program that only talks to a deputy API over HTTP imports
 * `deputy/client` and loads none of that. The client's types come from `deputy/client`.
 */
export { createLocalDeputyClient } from './local-client.js';
export type { LocalClientOptions, LocalDeputyClient } from './local-client.js';
