/**
 * Where a piece of work spends its time, from a CPU profile taken in the same process: every
 * sample is put in the first category its stack matches, walking from the innermost frame out,
 * so a sample in the `yaml` library counts as YAML even when a reader called it. The profiler
 * samples the main thread at a fixed interval whether it is busy or idle, so each category's
 * share of the samples is its share of the wall time (idle: waiting for the thread pool's I/O).
 */
import { Session } from 'node:inspector/promises';

export interface Category {
  label: string;
  /** Whether a frame belongs here, by its function name and script URL. */
  matches: (functionName: string, url: string) => boolean;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Each category's share (0..1) of the time `work` took, with `other` for unmatched samples. */
export async function cpuBreakdown(
  work: () => Promise<void>,
  categories: Category[],
  samplingIntervalUs = 100,
): Promise<Map<string, number>> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
    await session.post('Profiler.start');
    await work();
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    return shares(profile, categories);
  } finally {
    session.disconnect();
  }
}

function shares(profile: Profile, categories: Category[]): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);

  const categoryOf = new Map<number, string>();
  const classify = (leaf: number): string => {
    const known = categoryOf.get(leaf);
    if (known !== undefined) return known;
    let label = 'other';
    for (let id: number | undefined = leaf; id !== undefined; id = parentOf.get(id)) {
      const { functionName, url } = byId.get(id)!.callFrame;
      const match = categories.find((category) => category.matches(functionName, url));
      if (match !== undefined) {
        label = match.label;
        break;
      }
    }
    categoryOf.set(leaf, label);
    return label;
  };

  const time = new Map<string, number>([...categories.map((c) => [c.label, 0] as const)]);
  time.set('other', 0);
  let total = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's delta is the time since the previous one: it belongs to the previous sample.
  for (let index = 1; index < samples.length; index++) {
    const delta = deltas[index] ?? 0;
    const label = classify(samples[index - 1]!);
    time.set(label, time.get(label)! + delta);
    total += delta;
  }
  return new Map([...time].map(([label, spent]) => [label, total === 0 ? 0 : spent / total]));
}
