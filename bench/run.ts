/**
 * `npm run bench [-- --only name[,name]]`: every benchmark (or the ones named), each figure
 * against a baseline measured in the same run on the same machine; then ONE table of every
 * figure, and the same as JSON in bench/results/bench-<date>.json with the machine's facts.
 * Figures, not assertions: tests never check speed, and a missed target does not fail the run.
 */
import { loadavg } from 'node:os';
import { benchAgentsList } from './agents-list.js';
import { benchCapacity } from './capacity.js';
import { benchCardResume } from './card-resume.js';
import { benchCli } from './cli.js';
import { benchCluster } from './cluster.js';
import { benchDelegationOverhead } from './delegation-overhead.js';
import { benchInboxLatency } from './inbox-latency.js';
import { benchKbSearch } from './kb-search.js';
import { benchMcpDoor } from './mcp-door.js';
import { benchMcpGateway } from './mcp-gateway.js';
import { installQuietRuntime } from './quiet-runtime.js';
import { benchRegistryLoad } from './registry-load.js';
import { benchSandbox } from './sandbox/bash-call.js';
import {
  headCommit,
  machineFacts,
  renderNotes,
  renderTable,
  writeResults,
  type KeyedReport,
} from './report.js';
import { benchSessionTask } from './session-task.js';
import { benchStartAndApprove } from './start-and-approve.js';
import type { BenchReport } from './stats.js';
import { benchStepLatency } from './step-latency.js';
import { benchTraceCost } from './trace-cost.js';

/** In the order they run: the quick in-process ones first, Temporal ones after. */
const BENCHES: Record<string, () => Promise<BenchReport>> = {
  b1: benchDelegationOverhead,
  'kb-search': benchKbSearch,
  sandbox: benchSandbox,
  registry: benchRegistryLoad,
  'agents-list': benchAgentsList,
  cli: benchCli,
  'start-and-approve': benchStartAndApprove,
  mcp: benchMcpGateway,
  'mcp-door': benchMcpDoor,
  session: benchSessionTask,
  'card-resume': benchCardResume,
  inbox: benchInboxLatency,
  'step-latency': benchStepLatency,
  'trace-cost': benchTraceCost,
  capacity: benchCapacity,
  cluster: benchCluster,
};

/**
 * Run only when named: parking 10 000 delegations and draining them takes most of an hour on a
 * small machine, which would make every `npm run bench` that long; `cluster` starts two clusters
 * and a dev server and takes minutes.
 */
const ONLY_WHEN_NAMED = new Set(['capacity', 'cluster']);

/** The names to run, from `--only a,b` or `--only=a,b`; without it, all but the long ones. */
export function selectBenches(args: string[], known: string[]): string[] {
  const names: string[] = [];
  let only = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    let value: string | undefined;
    if (arg === '--only') value = args[++index];
    else if (arg.startsWith('--only=')) value = arg.slice('--only='.length);
    else throw new Error(`unknown argument ${arg}; usage: npm run bench -- [--only name[,name]]`);
    if (value === undefined || value.trim() === '') throw new Error('--only needs bench names');
    only = true;
    names.push(
      ...value
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    );
  }
  if (!only) return known.filter((name) => !ONLY_WHEN_NAMED.has(name));
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new Error(`unknown bench name(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
  }
  // In the catalogue's order, each once.
  return known.filter((name) => names.includes(name));
}

let selected: string[];
try {
  selected = selectBenches(process.argv.slice(2), Object.keys(BENCHES));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

installQuietRuntime();
const machine = machineFacts();

const reports: KeyedReport[] = [];
let failed = false;
for (const key of selected) {
  const load = loadavg()[0]!.toFixed(1);
  const gitCommit = headCommit();
  const started = performance.now();
  console.log(`running ${key} ...`);
  let report: BenchReport;
  try {
    report = await BENCHES[key]!();
  } catch (error) {
    // One broken bench must not cost the figures of the others.
    failed = true;
    console.error(`${key} failed:`, error);
    report = { name: `${key} FAILED`, rows: [], notes: [String((error as Error).stack ?? error)] };
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const keyed: KeyedReport = {
    ...report,
    key,
    gitCommit,
    finishedAt: new Date().toISOString(),
    // The machine is shared: the load says how much the figures were contended.
    notes: [
      ...(report.notes ?? []),
      `took ${seconds} s; 1-minute load average ${load} at start, ${loadavg()[0]!.toFixed(1)} at end`,
    ],
  };
  reports.push(keyed);
  console.log(renderTable([keyed]));
  console.log();
}

console.log(renderTable(reports));
console.log();
console.log(renderNotes(reports));
console.log();
console.log(`written to ${writeResults(reports, machine)}`);
if (failed) process.exitCode = 1;
