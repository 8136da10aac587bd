/**
 * A small seeded PRNG (mulberry32): every random choice the chaos suite makes comes from one of
 * these, so a failing run repeats exactly with `--seed N` (timings aside: the machine decides
 * those, the seed decides what is killed, decided and raced, and when it is aimed at).
 */
export interface Rng {
  /** The seed it was made from. */
  readonly seed: number;
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A new generator for one scenario: scenarios running side by side never shift each other. */
  fork(label: string): Rng;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    // Derived from the seed and the label only, not from how much the parent has drawn.
    fork: (label) => createRng(hash(`${seed}:${label}`)),
  };
  return rng;
}

/** FNV-1a: a stable 32-bit number for a fork's label. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seed for a run that names none: printed at the start so the run can be repeated. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
