/** Workflow bundle entry for the benchmark: deputy's delegation and the bare baseline. */
export { delegation } from '../src/workflows/index.js';
export { bareRounds } from './bare-workflow.js';
