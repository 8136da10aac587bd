/**
 * The one table `npm run bench` prints and the dated JSON record it keeps in bench/results/:
 * every bench's rows under its short name, then each bench's title and notes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { targetMet, type BenchReport, type BenchRow } from './stats.js';

export interface KeyedReport extends BenchReport {
  /** The `--only` name it ran under (b1, kb-search, ...). */
  key: string;
  /** HEAD when it started (the tree is shared: it can move during a run). */
  gitCommit?: string;
  finishedAt?: string;
}

function formatNumber(value: number | undefined, digits = 2): string {
  if (value === undefined) return '';
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  return value.toFixed(abs >= 1000 ? 0 : abs >= 100 ? 1 : digits);
}

function cells(key: string, row: BenchRow): string[] {
  const met = targetMet(row);
  return [
    key,
    row.metric,
    `${formatNumber(row.value)} ${row.unit}`,
    row.baseline === undefined ? '' : `${formatNumber(row.baseline)} ${row.unit}`,
    row.ratio === undefined ? '' : `${formatNumber(row.ratio, 3)}x`,
    row.target ?? '',
    met === undefined ? '' : met ? 'yes' : 'NO',
  ];
}

export function renderTable(reports: KeyedReport[]): string {
  const header = ['bench', 'metric', 'value', 'baseline', 'ratio', 'target', 'met?'];
  const body = reports.flatMap((report) => report.rows.map((row) => cells(report.key, row)));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((line) => line[column]!.length)),
  );
  // Figures right-aligned so their digits line up; names left.
  const right = new Set([2, 3, 4]);
  const line = (values: string[]) =>
    values
      .map((value, column) =>
        right.has(column) ? value.padStart(widths[column]!) : value.padEnd(widths[column]!),
      )
      .join(' | ')
      .trimEnd();
  return [
    line(header),
    widths.map((width) => '-'.repeat(width)).join('-|-'),
    ...body.map(line),
  ].join('\n');
}

export function renderNotes(reports: KeyedReport[]): string {
  return reports
    .map((report) =>
      [`${report.key}: ${report.name}`, ...(report.notes ?? []).map((note) => `  ${note}`)].join(
        '\n',
      ),
    )
    .join('\n');
}

/** For standalone runs of one bench file: its table and notes, no record written. */
export function printReports(reports: BenchReport[], key = 'bench'): void {
  const keyed = reports.map((report) => ({ ...report, key }));
  console.log(renderTable(keyed));
  console.log();
  console.log(renderNotes(keyed));
}

export interface MachineFacts {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  gitCommit: string;
  /** Uncommitted changes in the tree when it ran (other engineers share it). */
  gitDirty: boolean;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}

export function headCommit(): string {
  return git(['rev-parse', 'HEAD']).trim() || 'unknown';
}

/** Taken when a run starts: the commit and tree state the run began on. */
export function machineFacts(): MachineFacts {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    gitCommit: headCommit(),
    gitDirty: git(['status', '--porcelain', '--untracked-files=no']).trim() !== '',
  };
}

interface ResultsFile {
  date: string;
  machine: MachineFacts;
  benches: Array<KeyedReport & { finishedAt: string; gitCommit: string }>;
}

/**
 * Writes bench/results/bench-<date>.json. A run of a subset (`--only`) replaces those benches'
 * entries in the day's file and keeps the others, so one day's record can be built in parts.
 */
export function writeResults(
  reports: KeyedReport[],
  machine: MachineFacts = machineFacts(),
  now = new Date(),
): string {
  const date = now.toISOString().slice(0, 10);
  const directory = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(directory, { recursive: true });
  const path = `${directory}bench-${date}.json`;
  const previous = existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as ResultsFile).benches
    : [];
  const finishedAt = now.toISOString();
  // Per entry too: a day's file may hold entries of runs on different commits.
  const fresh = reports.map(({ key, name, rows, notes, gitCommit, finishedAt: at }) => ({
    key,
    name,
    finishedAt: at ?? finishedAt,
    gitCommit: gitCommit ?? machine.gitCommit,
    rows,
    ...(notes === undefined ? {} : { notes }),
  }));
  const kept = previous.filter((old) => !fresh.some((entry) => entry.key === old.key));
  const record: ResultsFile = { date, machine, benches: [...kept, ...fresh] };
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  return path;
}
