/** Workflow bundle entry for the benchmarks: deputy's delegation and session, and the bare baselines. */
export { delegation, session } from '../src/workflows/index.js';
export { bareLocalReads, bareRounds } from './bare-workflow.js';
export { floorRounds } from './floor-workflow.js';
export { bareSignal } from './bare-signal.js';
export { bareSession } from './bare-session.js';
