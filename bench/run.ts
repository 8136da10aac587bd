/**
 * `npm run bench`: every benchmark, each reported as a ratio against a baseline measured in
 * the same run on the same machine. Figures, not assertions: tests never check speed.
 */
import { Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { benchAgentsList } from './agents-list.js';
import { benchDelegationOverhead } from './delegation-overhead.js';
import { benchKbSearch } from './kb-search.js';
import { benchMcpGateway } from './mcp-gateway.js';
import { benchRegistryLoad } from './registry-load.js';
import { benchSessionTask } from './session-task.js';
import { benchStartAndApprove } from './start-and-approve.js';
import type { BenchReport } from './stats.js';

// Worker logs would drown the figures; warnings and errors still show.
Runtime.install({
  logger: {
    log: () => {},
    trace: () => {},
    debug: () => {},
    info: () => {},
    warn: (message) => console.warn(message),
    error: (message) => console.error(message),
  },
  telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }) } },
});

const benches: Array<() => Promise<BenchReport>> = [
  benchDelegationOverhead,
  benchKbSearch,
  benchRegistryLoad,
  benchAgentsList,
  benchStartAndApprove,
  benchMcpGateway,
  benchSessionTask,
];

for (const bench of benches) {
  const report = await bench();
  console.log([report.name, ...(report.lines ?? []).map((line) => `  ${line}`)].join('\n'));
  console.log();
}
