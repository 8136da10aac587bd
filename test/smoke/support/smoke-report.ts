/**
 * The smoke suite's table: one row per check, with the model and endpoint it ran on, its model
 * rounds, its tokens and its wall time. Each check writes its row as a file into a folder the
 * global setup made (checks may run in another process), and the setup's teardown prints them
 * all at the end of the run, failed checks included.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UsageTotals } from '../../../src/shared/delegation.js';

export interface SmokeRow {
  check: string;
  /** `describeEndpoint` of the model it ran on. */
  endpoint: string;
  outcome: 'passed' | 'failed';
  /** Model rounds of every delegation the check ran (a session's children included). */
  rounds: number | null;
  usage: UsageTotals | null;
  wallMs: number;
  /** Epoch milliseconds: the table lists checks in the order they ran. */
  startedAt: number;
}

/** What a check reports while it runs; whatever it set is in its row even when it fails. */
export interface CheckFigures {
  rounds: number | null;
  usage: UsageTotals | null;
}

/** Runs `check`, timing it, and writes its row to `reportDir` whether it passes or throws. */
export async function measured(
  reportDir: string,
  check: string,
  endpoint: string,
  run: (figures: CheckFigures) => Promise<void>,
): Promise<void> {
  const figures: CheckFigures = { rounds: null, usage: null };
  const startedAt = Date.now();
  let outcome: SmokeRow['outcome'] = 'failed';
  try {
    await run(figures);
    outcome = 'passed';
  } finally {
    const row: SmokeRow = {
      check,
      endpoint,
      outcome,
      ...figures,
      wallMs: Date.now() - startedAt,
      startedAt,
    };
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(
      join(reportDir, `${startedAt}-${process.pid}-${check.replace(/\W+/g, '-')}.json`),
      JSON.stringify(row),
    );
  }
}

export function readRows(reportDir: string): SmokeRow[] {
  let names: string[];
  try {
    names = readdirSync(reportDir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(reportDir, name), 'utf8')) as SmokeRow)
    .sort((a, b) => a.startedAt - b.startedAt);
}

/** A plain-text table (also valid Markdown), one row per check, and a total line. */
export function formatTable(rows: readonly SmokeRow[]): string {
  const header = ['check', 'outcome', 'rounds', 'tokens (in/out)', 'wall', 'model @ endpoint'];
  const cells = rows.map((row) => [
    row.check,
    row.outcome,
    row.rounds === null ? '-' : String(row.rounds),
    row.usage === null
      ? '-'
      : `${row.usage.inputTokens + row.usage.outputTokens} (${row.usage.inputTokens}/${row.usage.outputTokens})`,
    seconds(row.wallMs),
    row.endpoint,
  ]);
  const totalMs = rows.reduce((sum, row) => sum + row.wallMs, 0);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]!.length)),
  );
  const line = (values: readonly string[]) =>
    `| ${values.map((value, column) => value.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...cells.map(line),
    `${rows.length} check(s), ${rows.filter((row) => row.outcome === 'passed').length} passed, ${seconds(totalMs)} in checks`,
  ].join('\n');
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
