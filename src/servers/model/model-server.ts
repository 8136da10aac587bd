/**
 * llama.cpp's own HTTP server (embedded in xllamacpp) on a free loopback port: OpenAI's
 * `/v1/chat/completions`, Anthropic's `/v1/messages`, `/v1/models` and `/health`. It runs in a
 * process group that dies with this process (src/processes/watched-group.ts), so a smoke run that
 * is killed leaves no 2 GB server behind.
 *
 * Defaults that make a small CPU model usable as an agent's model:
 * - one thread: with two on a busy 2-core machine generation is ten times slower;
 * - temperature 0 and a `max_tokens` for any request that sets none (a request's own values
 *   win): the same prompt gives the same answer, and no request runs for thousands of tokens;
 * - the replacement chat template beside this file, without which no reply is ever a tool call.
 */
import { fileURLToPath } from 'node:url';
import { freePort } from '../dev/dev-server.js';
import { OutputEnds } from '../../processes/output-ends.js';
import { spawnWatchedGroup } from '../../processes/watched-group.js';

/** The chat template that makes Qwen2.5's tool calls come back as `tool_calls`. */
export const QWEN25_TOOL_CALLS_TEMPLATE = fileURLToPath(
  new URL('./qwen25-tool-calls.jinja', import.meta.url),
);

/** The model's name in requests and in `/v1/models`. */
export const LOCAL_MODEL_ALIAS = 'local';

const STOP_GRACE_MS = 5_000;

export interface ModelServerOptions {
  /** A python that imports xllamacpp (src/servers/model/model-runtime.ts). */
  python: string;
  modelPath: string;
  /** Default QWEN25_TOOL_CALLS_TEMPLATE. */
  chatTemplatePath?: string;
  /** Generation threads. Default 1. */
  threads?: number;
  /** Context window in tokens. Default 8192. */
  contextTokens?: number;
  /** `max_tokens` of a request that sends none. Default 512. */
  defaultMaxTokens?: number;
  /** Default: a free port. */
  port?: number;
  /** Milliseconds to wait for `/health`. Default 120000 (loading takes 2-6 s on a quiet machine). */
  readyTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>`: add `/v1` for an OpenAI client; an Anthropic client takes it as is. */
  url: string;
  /** The model name requests send. */
  model: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * argv[1]: the settings as JSON. Prints one line once the server listens, and exits on SIGTERM.
 */
const SERVE = `
import json, signal, sys, time
import xllamacpp

settings = json.loads(sys.argv[1])
params = xllamacpp.CommonParams()
params.model.path = settings["modelPath"]
params.model_alias = {settings["alias"]}
params.n_ctx = settings["contextTokens"]
params.n_parallel = 1
params.n_predict = settings["defaultMaxTokens"]
params.sampling.temp = 0.0
params.cpuparams.n_threads = settings["threads"]
params.cpuparams_batch.n_threads = settings["threads"]
with open(settings["chatTemplatePath"], encoding="utf-8") as template:
    params.chat_template = template.read()
params.use_jinja = True
params.ui = False
params.hostnames = ["127.0.0.1"]
params.port = settings["port"]
params.warmup = True
server = xllamacpp.Server(params)
print("listening", flush=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
while True:
    time.sleep(3600)
`;

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const log = options.log ?? (() => {});
  const port = options.port ?? (await freePort());
  const settings = {
    modelPath: options.modelPath,
    alias: LOCAL_MODEL_ALIAS,
    chatTemplatePath: options.chatTemplatePath ?? QWEN25_TOOL_CALLS_TEMPLATE,
    threads: options.threads ?? 1,
    contextTokens: options.contextTokens ?? 8192,
    defaultMaxTokens: options.defaultMaxTokens ?? 512,
    port,
  };
  const child = spawnWatchedGroup(options.python, ['-c', SERVE, JSON.stringify(settings)], {
    graceMs: STOP_GRACE_MS,
  });
  const output = new OutputEnds(4000);
  child.stdout.on('data', (chunk: Buffer) => output.add(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.add(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const signalGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined || gone) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  const killOnExit = (): void => signalGroup('SIGKILL');
  process.once('exit', killOnExit);
  const url = `http://127.0.0.1:${port}`;
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.removeListener('exit', killOnExit);
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };
  const started = Date.now();
  try {
    await waitForHealth(url, options.readyTimeoutMs ?? 120_000, () => gone, output);
  } catch (error) {
    await stop();
    throw error;
  }
  log(`model server ready on ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { url, model: LOCAL_MODEL_ALIAS, pid: child.pid ?? -1, stop };
}

/** `/health` answers 503 while the model loads and 200 once it serves. */
async function waitForHealth(
  url: string,
  timeoutMs: number,
  exited: () => boolean,
  output: OutputEnds,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited()) {
      throw new Error(`the model server exited before it was ready:\n${output.toString()}`);
    }
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `the model server on ${url} was not ready after ${timeoutMs} ms (${last}):\n${output.toString()}`,
  );
}
