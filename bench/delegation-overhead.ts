/**
 * B1: a delegation of N rounds (scripted model, one trivial `read` per round) against a bare
 * Temporal workflow running the same activities as ordinary activities, on the same dev server
 * and worker, runs alternating. Reports the median and p99 ratio and the extra milliseconds per
 * step; then the history bytes per round of each, for this agent and for a wider one (six tools,
 * a 3 KB prompt): the bare workflow carries the snapshot in every call, as delegations did
 * before snapshots went by reference, so it is also the "before" of that change.
 */
import { randomUUID } from 'node:crypto';
import { delegationWorkflowId } from '../src/shared/delegation.js';
import { historySize, type HistorySize } from './history-bytes.js';
import { alternate, median, percentile, type BenchReport } from './stats.js';
import { delegationInput, startRig } from './temporal-rig.js';

const ROUNDS = 10;
const PAIRS = Number(process.env.BENCH_PAIRS ?? 15);

export async function benchDelegationOverhead(): Promise<BenchReport> {
  const turns = Array.from(
    { length: ROUNDS },
    (_, index) =>
      `  - text: round ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: note.txt } }]`,
  );
  const prompt =
    'Read what the task names, compare it with the notes, and say what differs. '.repeat(40);
  const { client, taskQueue, run } = await startRig({
    name: 'b1',
    files: {
      'note.txt': 'a small file to read\n',
      'scripts/bench.yaml': `turns:\n${turns.join('\n')}\n  - text: done\n`,
      '.subagents/agents/bench.md': `---\nname: bench\ndescription: benchmark agent\nmodel: scripted:scripts/bench.yaml\ntools: [read]\nmaxTurns: ${ROUNDS + 5}\n---\nBench.\n`,
      '.subagents/agents/wide.md': `---\nname: wide\ndescription: benchmark agent with a realistic toolset\nmodel: scripted:scripts/bench.yaml\ntools: [read, glob, grep, write, edit, bash]\napprovalMode: full-access\nmaxTurns: ${ROUNDS + 5}\n---\n${prompt}\n`,
    },
  });

  let lastWorkflowId = '';
  const runDelegation = async (agent = 'bench'): Promise<number> => {
    const id = `b-${randomUUID().slice(0, 8)}`;
    lastWorkflowId = delegationWorkflowId('bench', id);
    const started = performance.now();
    const result = await client.workflow.execute('delegation', {
      taskQueue,
      workflowId: lastWorkflowId,
      args: [delegationInput(id, agent, 'bench')],
    });
    if ((result as { roundsUsed: number }).roundsUsed !== ROUNDS + 1) throw new Error('bad run');
    return performance.now() - started;
  };
  const runBare = async (agent = 'bench'): Promise<number> => {
    lastWorkflowId = `bare-${randomUUID()}`;
    const started = performance.now();
    await client.workflow.execute('bareRounds', {
      taskQueue,
      workflowId: lastWorkflowId,
      args: [agent, 'bench'],
    });
    return performance.now() - started;
  };
  const lastHistory = async () =>
    historySize(await client.workflow.getHandle(lastWorkflowId).fetchHistory());
  const historyPerRound = async (agent: string) => {
    await runDelegation(agent);
    const delegation = await lastHistory();
    await runBare(agent);
    return { delegation, bare: await lastHistory() };
  };

  const delegationTimes: number[] = [];
  const bareTimes: number[] = [];
  let history: Record<'bench' | 'wide', { delegation: HistorySize; bare: HistorySize }> | undefined;
  await run(async () => {
    await runDelegation(); // warm-up: bundle caches, connections, SQLite pages
    await runBare();
    // Alternating which goes first, so drift on the machine hits both sides alike.
    await alternate(PAIRS, [
      async () => delegationTimes.push(await runDelegation()),
      async () => bareTimes.push(await runBare()),
    ]);
    history = { bench: await historyPerRound('bench'), wide: await historyPerRound('wide') };
  });

  const steps = ROUNDS * 2 + 2; // callModel + runTool per round, final callModel, resolveAgent
  const medianRatio = median(delegationTimes) / median(bareTimes);
  const p99Ratio = percentile(delegationTimes, 99) / percentile(bareTimes, 99);
  const extraPerStep = (median(delegationTimes) - median(bareTimes)) / steps;
  const perRound = (size: HistorySize) => size.bytes / (ROUNDS + 1);
  const historyRow = (agent: 'bench' | 'wide', label: string) => ({
    metric: `history bytes per round, ${label}`,
    value: perRound(history![agent].delegation),
    unit: 'B',
    baseline: perRound(history![agent].bare),
    ratio: history![agent].delegation.bytes / history![agent].bare.bytes,
  });
  const { bytes, events, byType } = history!.wide.delegation;
  return {
    name: `B1 delegation vs bare workflow (${ROUNDS} rounds, ${PAIRS} alternating pairs)`,
    rows: [
      {
        metric: 'delegation median',
        value: median(delegationTimes),
        unit: 'ms',
        baseline: median(bareTimes),
        ratio: medianRatio,
        target: '<= 1.0',
      },
      {
        metric: 'delegation p99',
        value: percentile(delegationTimes, 99),
        unit: 'ms',
        baseline: percentile(bareTimes, 99),
        ratio: p99Ratio,
      },
      { metric: 'extra per activity step', value: extraPerStep, unit: 'ms' },
      historyRow('bench', 'one tool'),
      historyRow('wide', 'six tools, 3 KB prompt'),
    ],
    notes: [
      `${steps} activity steps a run: resolveAgent, then callModel + read per round, a last callModel`,
      'history baseline: the bare workflow, which carries the whole snapshot in every call',
      `history of the wide delegation: ${bytes} bytes in ${events} events; largest event types: ` +
        byType
          .slice(0, 4)
          .map((entry) => `${entry.type} ${entry.bytes} B (${entry.count})`)
          .join(', '),
    ],
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const report = await benchDelegationOverhead();
  console.log(report.name);
  for (const row of report.rows ?? []) console.log(`  ${JSON.stringify(row)}`);
  for (const note of report.notes ?? []) console.log(`  ${note}`);
}
