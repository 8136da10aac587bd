/**
 * What each scenario hands back, and the one table (and JSON file) the run ends with.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/config/load.js';

export interface ScenarioResult {
  scenario: string;
  /** Delegations (or restarts, for the server scenario: see `figures`) the scenario ran. */
  runs: number;
  /** The invariants checked, in a few words. */
  checked: string;
  /** Measured figures: kills, restarts, durations, answers by status... */
  figures: Record<string, number | string>;
  /** Every invariant violation, naming the delegation (or card) and what was seen. */
  violations: string[];
  durationMs: number;
}

export interface RunReport {
  profile: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  passed: boolean;
  scenarios: Array<ScenarioResult & { passed: boolean }>;
}

function figuresText(figures: ScenarioResult['figures']): string {
  return Object.entries(figures)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
}

/** A plain-text table: scenario | runs | checked | figures | result. Long cells wrap. */
export function renderTable(report: RunReport): string {
  const header = ['scenario', 'runs', 'what was checked', 'result figures', 'pass/fail'];
  const rows = report.scenarios.map((s) => [
    s.scenario,
    String(s.runs),
    s.checked,
    `${figuresText(s.figures)}, duration=${(s.durationMs / 1000).toFixed(1)}s`,
    s.passed ? 'PASS' : `FAIL (${s.violations.length})`,
  ]);
  const widths = [22, 6, 44, 60, 10];
  const wrap = (text: string, width: number): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
    return lines;
  };
  const render = (cells: string[]): string => {
    const wrapped = cells.map((cell, i) => wrap(cell, widths[i]!));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    return Array.from({ length: height }, (_, row) =>
      wrapped.map((lines, i) => (lines[row] ?? '').padEnd(widths[i]!)).join(' | '),
    ).join('\n');
  };
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  return [render(header), rule, ...rows.flatMap((row) => [render(row), rule])].join('\n');
}

/**
 * bench/results/chaos-<profile>-<YYYY-MM-DD>.json, or `...-only-<scenarios>.json` for a subset
 * (which must not replace the day's full record); the path written.
 */
export async function writeJson(report: RunReport, only: string | null): Promise<string> {
  const directory = join(PROJECT_ROOT, 'bench', 'results');
  await mkdir(directory, { recursive: true });
  const subset = only === null ? '' : `-only-${only.replace(/[^0-9]+/g, '-')}`;
  const path = join(
    directory,
    `chaos-${report.profile}-${report.startedAt.slice(0, 10)}${subset}.json`,
  );
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
