/**
 * B2: kb_search against ripgrep (`rg -F -j1 QUERY DIR`) on the same corpora and query, runs
 * alternating so both see the same cache and machine state. Three corpora of ~8 MB each (just
 * under kb_search's 8 MiB read budget, so neither side is cut): 1 file, 160 files, 2,000 files.
 * kb_search is timed as the tool call the worker makes (in-process); rg as the process a tool
 * would spawn. Targets: <= 1.5x rg for 160 files, <= 2x for 2,000.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deputyRoots } from '../src/paths/deputy-roots.js';
import { createKbSearchTool } from '../src/tools/kb-search.js';
import type { ToolContext } from '../src/tools/tool.js';
import { median, type BenchReport, type BenchRow } from './stats.js';

const TOTAL_BYTES = 8_000_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 3;
const QUERY = 'warranty';

const CORPORA = [
  { name: '1 file', files: 1, targetRatio: null },
  { name: '160 files', files: 160, targetRatio: 1.5 },
  { name: '2,000 files', files: 2000, targetRatio: 2 },
] as const;

// Deterministic pseudo-prose: the same corpus on every run and machine.
const WORDS =
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when if so no will more can out other about into them only some time could these two may first then do any like my now over such our man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(
    ' ',
  );

function makeCorpus(directory: string, files: number): void {
  let seed = 42 + files;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const perFile = Math.floor(TOTAL_BYTES / files);
  for (let index = 0; index < files; index += 1) {
    const lines: string[] = [];
    let size = 0;
    while (size < perFile - 120) {
      const words: string[] = [];
      const count = 8 + Math.floor(random() * 10);
      for (let w = 0; w < count; w += 1) {
        // About one line in 800 mentions the query word, in varying case.
        words.push(
          random() < 0.0001 * count
            ? random() < 0.5
              ? 'warranty'
              : 'Warranty'
            : (WORDS[Math.floor(random() * WORDS.length)] ?? 'x'),
        );
      }
      const line = words.join(' ');
      lines.push(line);
      size += line.length + 1;
    }
    const folder = join(directory, `part-${Math.floor(index / 100)}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `doc-${index}.txt`), `${lines.join('\n')}\n`);
  }
}

function ensureRipgrep(notes: string[]): string {
  const found = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (found.status === 0) return found.stdout.split('\n')[0] ?? 'rg';
  notes.push('ripgrep was missing: installed it with apt-get update && apt-get install -y ripgrep');
  execFileSync('apt-get', ['update'], { stdio: 'ignore' });
  execFileSync('apt-get', ['install', '-y', 'ripgrep'], { stdio: 'ignore' });
  return spawnSync('rg', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0] ?? 'rg';
}

export async function benchKbSearch(): Promise<BenchReport> {
  const notes: string[] = [];
  const rgVersion = ensureRipgrep(notes);
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-bench-kb-')));
  notes.push(
    `baseline: ${rgVersion}, rg -F -j1 ${QUERY} DIR (case-sensitive); kb_search is case-insensitive and ranks`,
    'kb_search timed as the tool call the worker makes (in process); rg as the process a tool would spawn',
  );
  const rows: BenchRow[] = [];
  const context: ToolContext = {
    workspaceRoot: root,
    snapshot: {} as ToolContext['snapshot'],
    signal: new AbortController().signal,
    heartbeat: () => undefined,
  };
  const { hiddenRoots } = deputyRoots({
    workspace: root,
    dataDir: join(root, '.deputy'),
    userDir: join(root, 'user'),
    projectRoot: join(root, 'deputy'),
    skills: { pluginDirs: [] },
  });
  try {
    for (const corpus of CORPORA) {
      const folder = `corpus-${corpus.files}`;
      makeCorpus(join(root, folder), corpus.files);
      // As the worker builds it: deputy's hidden roots checked for every file searched.
      const tool = createKbSearchTool(
        [{ name: 'corpus', glob: `${folder}/**/*.txt` }],
        root,
        {},
        hiddenRoots,
      );
      const runKb = async (): Promise<{ ms: number; output: string }> => {
        const start = performance.now();
        const output = await tool.run({ query: QUERY }, context);
        return { ms: performance.now() - start, output };
      };
      const runRg = (caseInsensitive = false): { ms: number; output: string } => {
        const start = performance.now();
        const flags = caseInsensitive ? ['-F', '-i', '-j1'] : ['-F', '-j1'];
        const result = spawnSync('rg', [...flags, QUERY, folder], {
          cwd: root,
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        });
        return { ms: performance.now() - start, output: result.stdout };
      };
      for (let i = 0; i < WARMUP; i += 1) {
        await runKb();
        runRg();
      }
      const kbTimes: number[] = [];
      const rgTimes: number[] = [];
      const rgCaseInsensitiveTimes: number[] = [];
      let kbOutput = '';
      let rgOutput = '';
      for (let i = 0; i < RUNS; i += 1) {
        // Alternate which goes first, so neither always inherits the other's warm state.
        if (i % 2 === 0) {
          const kb = await runKb();
          const rg = runRg();
          kbTimes.push(kb.ms);
          rgTimes.push(rg.ms);
          kbOutput = kb.output;
          rgOutput = rg.output;
        } else {
          rgTimes.push(runRg().ms);
          kbTimes.push((await runKb()).ms);
        }
        rgCaseInsensitiveTimes.push(runRg(true).ms); // informative: the same work as kb_search
      }
      if (kbOutput.includes('[cut] read budget'))
        throw new Error(`${corpus.name}: corpus exceeds the read budget`);
      const rgHits = rgOutput.split('\n').filter((line) => line !== '').length;
      const kbMatched =
        /(\d+) lines matched/.exec(kbOutput)?.[1] ?? /(\d+) hits? \(/.exec(kbOutput)?.[1] ?? '0';
      rows.push(
        {
          metric: `${corpus.name}: kb_search vs rg median`,
          value: median(kbTimes),
          unit: 'ms',
          baseline: median(rgTimes),
          ratio: median(kbTimes) / median(rgTimes),
          ...(corpus.targetRatio === null ? {} : { target: `<= ${corpus.targetRatio}` }),
        },
        // Informative: rg doing the same case-insensitive work as kb_search.
        {
          metric: `${corpus.name}: kb_search vs rg -i median`,
          value: median(kbTimes),
          unit: 'ms',
          baseline: median(rgCaseInsensitiveTimes),
          ratio: median(kbTimes) / median(rgCaseInsensitiveTimes),
        },
      );
      notes.push(
        `${corpus.name}: lines matched: kb_search ${kbMatched} (any case), rg ${rgHits} (exact case)`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return {
    name: `B2 kb_search vs ripgrep (${RUNS} alternating runs per corpus, ~8 MB each)`,
    rows,
    notes,
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { printReports } = await import('./report.js');
  printReports([await benchKbSearch()], 'kb-search');
}
