/**
 * The `registry` bench: the registry loading 1,000 definitions (glob, read, hash, tolerant parse,
 * index) against a baseline that only reads the same files with `fs.readFile`, in the same run,
 * alternating. Reports the median time per definition and the ratio. The same is measured on the
 * real Claude Code files of test/fixtures/corpus, read at the ecosystem level (comma-separated
 * tools, aliases, YAML that needs recovering), which the corpus test checks for behaviour only.
 * Under each pair of rows, "of which" rows split the registry's time per definition by what it was
 * doing (cpu-breakdown.ts: a CPU profile of further loads in the same run).
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { createRegistry, type DefinitionRegistry } from '../src/definitions/registry/registry.js';
import { cpuBreakdown, type Category } from './cpu-breakdown.js';
import { median, type BenchReport, type BenchRow } from './stats.js';

const DEFINITIONS = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const CORPUS = fileURLToPath(
  new URL('../test/fixtures/corpus/claude-agents-voltagent/categories', import.meta.url),
);

/** A realistic mix: deputy-native lists, comments, an inline server, and a long body. */
function definitionText(index: number, sample = 0): string {
  const name = `agent-${String(index).padStart(4, '0')}`;
  const tools = index % 2 === 0 ? 'tools: [read, grep, glob]' : 'tools:\n  - read\n  - bash';
  const server =
    index % 5 === 0
      ? 'mcpServers:\n  - docs\n  - name: local\n    transport: stdio\n    command: node\n    args: [server.js]\n'
      : '';
  const body = `You are ${name}.\n\n${'Follow the project conventions and report what you changed. '.repeat(40)}\n`;
  return `---\n# generated for the benchmark, sample ${sample}\nname: ${name}\ndescription: "Agent number ${index}: does one thing well"\nmodel: default\n${tools}\n${server}knowledge:\n  - { name: docs, glob: "docs/**/*.md" }\nmemory: private\nmaxTurns: ${(index % 30) + 5}\ndisplayOrder: ${index % 7}\n---\n${body}`;
}

interface LoadTimes {
  registryMedian: number;
  baselineMedian: number;
  /** Each phase's share of registry.load's time (PHASES, then `other`). */
  phases: Map<string, number>;
}

const inPackage = (name: string) => (_: string, url: string) =>
  url.includes(`/node_modules/${name}/`);
const inSource = (file: string) => (_: string, url: string) => url.includes(`/src/${file}`);

/**
 * What registry.load does, by where the code lives; a sample goes to the first phase its stack
 * matches from the innermost frame out (so zod called by a field reader counts as zod).
 */
const PHASES: Category[] = [
  { label: 'main thread idle (waiting for file I/O)', matches: (name) => name === '(idle)' },
  { label: 'garbage collection', matches: (name) => name === '(garbage collector)' },
  {
    label: 'glob (fast-glob)',
    matches: (name, url) =>
      ['fast-glob', '@nodelib', 'micromatch', 'picomatch'].some((pkg) => inPackage(pkg)(name, url)),
  },
  {
    label: 'read (fs open, stat, read, close; bytes to text)',
    matches: (_, url) => /^node:(internal\/)?(fs|buffer)/.test(url),
  },
  { label: 'hash (sha256)', matches: (name, url) => name === 'sha256' || url.includes('crypto') },
  { label: 'YAML parse (yaml library)', matches: inPackage('yaml') },
  { label: 'YAML read once (text memo, copies)', matches: inSource('definitions/read/yaml-memo') },
  { label: 'YAML checks and copy (yaml-read)', matches: inSource('definitions/read/yaml-read') },
  { label: 'validation (zod)', matches: inPackage('zod') },
  { label: 'field reading (definitions/read)', matches: inSource('definitions/read/') },
  { label: 'index (precedence, sort)', matches: inSource('definitions/registry/precedence') },
  { label: 'scan and other registry code', matches: inSource('definitions/') },
];

/** Loads `registry` and reads `files` with fs.readFile, alternating, after one warm-up of each. */
async function measureLoad(
  registry: DefinitionRegistry,
  files: string[],
  expected: number,
  /** Untimed, before each load: rewrites the files as texts never read before (first reads). */
  renew?: () => Promise<void>,
): Promise<LoadTimes> {
  const loadRegistry = async (): Promise<number> => {
    await renew?.();
    const started = performance.now();
    await registry.load();
    const elapsed = performance.now() - started;
    if (registry.listAll().length !== expected)
      throw new Error('registry did not load every definition');
    return elapsed;
  };
  const readBaseline = async (): Promise<number> => {
    const started = performance.now();
    const texts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    const elapsed = performance.now() - started;
    if (texts.length !== expected) throw new Error('baseline did not read every file');
    return elapsed;
  };
  // Warm the page cache and the JIT for both sides before measuring.
  await loadRegistry();
  await readBaseline();
  const registryTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    registryTimes.push(await loadRegistry());
    baselineTimes.push(await readBaseline());
  }
  // Not timed: the profiler slows what it samples, so only the shares are taken from it.
  const phases = await cpuBreakdown(async () => {
    for (let run = 0; run < RUNS; run++) {
      await renew?.();
      await registry.load();
    }
  }, PHASES);
  return {
    registryMedian: median(registryTimes),
    baselineMedian: median(baselineTimes),
    phases,
  };
}

function reportRows(label: string, count: number, times: LoadTimes): BenchRow[] {
  const ratio = times.registryMedian / times.baselineMedian;
  return [
    {
      metric: `${label}: registry.load per definition vs fs.readFile per file`,
      value: (times.registryMedian / count) * 1000,
      unit: 'µs',
      baseline: (times.baselineMedian / count) * 1000,
      ratio,
    },
    {
      metric: `${label}: registry.load total vs fs.readFile total`,
      value: times.registryMedian,
      unit: 'ms',
      baseline: times.baselineMedian,
      ratio,
    },
    ...[...times.phases].map(([phase, share]): BenchRow => ({
      metric: `${label}:   of which ${phase}`,
      value: ((times.registryMedian * share) / count) * 1000,
      unit: 'µs',
    })),
  ];
}

export async function benchRegistryLoad(): Promise<BenchReport> {
  const root = await mkdtemp(join(tmpdir(), 'deputy-bench-registry-'));
  try {
    const registryIn = (workspace: string) =>
      createRegistry({
        config: {
          workspace,
          dataDir: join(root, 'data'),
          userDir: join(root, 'user'),
          projectRoot: join(root, 'project-root'),
        },
      });

    const workspace = join(root, 'workspace');
    const agents = join(workspace, '.subagents', 'agents');
    await mkdir(agents, { recursive: true });
    const files = Array.from({ length: DEFINITIONS }, (_, index) =>
      join(agents, `agent-${String(index).padStart(4, '0')}.md`),
    );
    await Promise.all(files.map((file, index) => writeFile(file, definitionText(index))));
    const synthetic = await measureLoad(registryIn(workspace), files, DEFINITIONS);
    // The same 1,000, each load's texts new (one comment line differs): what a first load pays.
    let sample = 0;
    const renew = async () => {
      sample++;
      await Promise.all(files.map((file, index) => writeFile(file, definitionText(index, sample))));
    };
    const firstReads = await measureLoad(registryIn(workspace), files, DEFINITIONS, renew);

    const corpusWorkspace = join(root, 'corpus-workspace');
    const ecosystem = join(corpusWorkspace, '.claude', 'agents');
    await cp(CORPUS, ecosystem, { recursive: true });
    const corpusFiles = await fg('**/*.md', { cwd: ecosystem, absolute: true });
    const corpus = await measureLoad(registryIn(corpusWorkspace), corpusFiles, corpusFiles.length);

    return {
      name: `registry load: definitions vs fs.readFile of the same files (median of ${RUNS})`,
      rows: [
        ...reportRows(`${DEFINITIONS} generated`, DEFINITIONS, synthetic),
        ...reportRows(`${DEFINITIONS} generated, texts never read before`, DEFINITIONS, firstReads),
        ...reportRows(`${corpusFiles.length} corpus`, corpusFiles.length, corpus),
      ],
      notes: [
        'registry.load = glob, read, hash, tolerant parse, validate, index; baseline = fs.readFile of the same files',
        'a reload (the first rows) parses no text it parsed before (yaml-memo.ts); "texts never read before" rewrites every file before each load, untimed, so each load parses all 1,000: what a first load pays',
        'corpus = the Claude Code files of test/fixtures/corpus, read at the ecosystem level',
        '"of which" = the per-definition time split by a CPU profile of further loads in the same run (bench/cpu-breakdown.ts)',
      ],
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { printReports } = await import('./report.js');
  printReports([await benchRegistryLoad()], 'registry');
}
