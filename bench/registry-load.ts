/**
 * B-registry: the registry loading 1,000 definitions (glob, read, hash, tolerant parse, index)
 * against a baseline that only reads the same files with `fs.readFile`, in the same run,
 * alternating. Reports the median time per definition and the ratio.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '../src/definitions/registry.js';
import { median, type BenchReport } from './stats.js';

const DEFINITIONS = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

/** A realistic mix: deputy-native lists, comments, an inline server, and a long body. */
function definitionText(index: number): string {
  const name = `agent-${String(index).padStart(4, '0')}`;
  const tools = index % 2 === 0 ? 'tools: [read, grep, glob]' : 'tools:\n  - read\n  - bash';
  const server =
    index % 5 === 0
      ? 'mcpServers:\n  - docs\n  - name: local\n    transport: stdio\n    command: node\n    args: [server.js]\n'
      : '';
  const body = `You are ${name}.\n\n${'Follow the project conventions and report what you changed. '.repeat(40)}\n`;
  return `---\n# generated for the benchmark\nname: ${name}\ndescription: "Agent number ${index}: does one thing well"\nmodel: default\n${tools}\n${server}knowledge:\n  - { name: docs, glob: "docs/**/*.md" }\nmemory: private\nmaxTurns: ${(index % 30) + 5}\ndisplayOrder: ${index % 7}\n---\n${body}`;
}

export async function benchRegistryLoad(): Promise<BenchReport> {
  const root = await mkdtemp(join(tmpdir(), 'deputy-bench-registry-'));
  try {
    const workspace = join(root, 'workspace');
    const agents = join(workspace, '.subagents', 'agents');
    await mkdir(agents, { recursive: true });
    await Promise.all(
      Array.from({ length: DEFINITIONS }, (_, index) =>
        writeFile(
          join(agents, `agent-${String(index).padStart(4, '0')}.md`),
          definitionText(index),
        ),
      ),
    );
    const registry = createRegistry({
      config: {
        workspace,
        dataDir: join(root, 'data'),
        userDir: join(root, 'user'),
        projectRoot: join(root, 'project-root'),
      },
    });
    const loadRegistry = async (): Promise<number> => {
      const started = performance.now();
      await registry.load();
      const elapsed = performance.now() - started;
      if (registry.list().length !== DEFINITIONS)
        throw new Error('registry did not load every definition');
      return elapsed;
    };
    const readBaseline = async (): Promise<number> => {
      const started = performance.now();
      const files = (await readdir(agents)).filter((file) => file.endsWith('.md'));
      const texts = await Promise.all(files.map((file) => readFile(join(agents, file), 'utf8')));
      const elapsed = performance.now() - started;
      if (texts.length !== DEFINITIONS) throw new Error('baseline did not read every file');
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
    const registryMedian = median(registryTimes);
    const baselineMedian = median(baselineTimes);
    return {
      name: `registry load: ${DEFINITIONS} definitions vs fs.readFile of the same files (median of ${RUNS})`,
      lines: [
        `registry.load   ${registryMedian.toFixed(1)} ms total, ${((registryMedian / DEFINITIONS) * 1000).toFixed(1)} µs per definition`,
        `fs.readFile     ${baselineMedian.toFixed(1)} ms total, ${((baselineMedian / DEFINITIONS) * 1000).toFixed(1)} µs per file`,
        `ratio           ${(registryMedian / baselineMedian).toFixed(1)}x the plain read (parse, validate, hash, index)`,
      ],
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const report = await benchRegistryLoad();
  console.log(report.name);
  for (const line of report.lines) console.log(`  ${line}`);
}
