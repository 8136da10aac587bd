/**
 * The floor of a step on this machine: a workflow of no-op activities in a delegation's shape
 * (one step, then per round one on the task queue and one local, as a model call and a read,
 * then a last one), so what it costs is Temporal's own work (server, core, the worker's
 * activations) and nothing of deputy's. Sandbox code, bundled only by the benchmark; its
 * activity is `floorStep` (bench/temporal-rig.ts).
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

interface FloorActivities {
  floorStep(): Promise<void>;
}

const remote = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });
const local = proxyLocalActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

/** `rounds * 2 + 2` no-op steps, as many as a delegation of `rounds` tool rounds runs. */
export async function floorRounds(rounds: number): Promise<void> {
  await remote.floorStep();
  for (let round = 0; round < rounds; round++) {
    await remote.floorStep();
    await local.floorStep();
  }
  await remote.floorStep();
}
