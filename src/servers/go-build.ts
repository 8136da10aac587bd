/**
 * Building a pinned Go program from the Go module proxy: the cluster profile's Temporal server
 * and UI (src/servers/cluster/cluster-tools.ts) and the trace store the tests use
 * (src/servers/jaeger/jaeger-tool.ts). Go itself must be on PATH (or `GO`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Downloads `module@v<version>` into Go's module cache; returns its (read-only) folder. */
export async function downloadModule(
  go: string,
  module: string,
  version: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const { stdout } = await goRun(go, ['mod', 'download', '-json', `${module}@v${version}`], {
    env,
  });
  const dir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  if (!dir) throw new Error(`go mod download ${module}@v${version} named no directory`);
  return dir;
}

export async function goRun(
  go: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string },
): Promise<{ stdout: string }> {
  try {
    return await run(go, args, { ...options, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new Error(
        `deputy builds this tool with Go, and \`${go}\` was not found: install Go 1.24 or newer (or set GO to its binary)`,
      );
    }
    throw new Error(`${go} ${args.join(' ')} failed: ${failure.stderr?.trim() ?? failure.message}`);
  }
}
