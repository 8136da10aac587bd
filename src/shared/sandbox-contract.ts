/**
 * The bounds a process deputy starts for an agent runs inside: what the definition (or the
 * workspace's default) declared, resolved to absolute paths by capability resolution, carried in
 * the capability snapshot, applied by the sandbox runner (src/sandbox/).
 */
export interface SandboxBounds {
  /** Paths the process may read, besides the system folders (absolute). */
  readOnly: string[];
  /** Paths the process may read and write; the workspace is always the first (absolute). */
  readWrite: string[];
  /** Names of the worker's environment variables passed through; everything else is absent. */
  env: string[];
  /** Ceilings; absent = the runner's defaults. */
  limits: SandboxLimits;
}

export interface SandboxLimits {
  /** CPU seconds of the whole call. */
  cpuSeconds?: number;
  /** Address space of each process, in MiB. */
  memoryMiB?: number;
  /** Processes (and threads) the call may have at once. */
  processes?: number;
}
