/**
 * Resident memory: the root `*.md` files of an agent's memory directory, read by the
 * memory tools (src/tools/memory.ts) and put into the prompt by capability resolution.
 */
export interface ResidentMemoryFile {
  /** File name inside the memory directory, e.g. `preferences.md`. */
  name: string;
  content: string;
}

/** Resident memory as `readResidentMemory` returns it: files within budget, and what was left out. */
export interface ResidentMemory {
  files: ResidentMemoryFile[];
  notes: string[];
}
