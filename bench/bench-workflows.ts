/** Workflow bundle entry for the benchmarks: deputy's delegation and the bare baselines. */
export { delegation } from '../src/workflows/index.js';
export { bareLocalReads, bareRounds } from './bare-workflow.js';
export { floorRounds } from './floor-workflow.js';
export { bareSignal } from './bare-signal.js';
