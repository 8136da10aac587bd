/** The workflow bundle's single entry: every workflow the worker registers. */
export { delegation } from './delegation.js';
export { session } from './session/session.js';
export { deliverNotification } from './notify.js';
