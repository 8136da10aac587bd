/**
 * The local model, installed: the runtime and the weights, both pinned, both in the tools folder,
 * installed at the same time (the runtime is pip work, the weights mostly download) and reused
 * afterwards. `npm run setup:model` runs this ahead of time.
 */
import { QWEN_CODER_1_5B, XLLAMACPP_VERSION, type ModelWeights } from './local-model-pins.js';
import { ensureModelRuntime } from './model-runtime.js';
import { ensureModelWeights } from './model-weights.js';

export interface InstalledLocalModel {
  /** The runtime venv's python, which imports xllamacpp. */
  python: string;
  /** The verified GGUF. */
  modelPath: string;
  weights: ModelWeights;
}

export async function ensureLocalModel(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = () => {},
  weights: ModelWeights = QWEN_CODER_1_5B,
): Promise<InstalledLocalModel> {
  const [python, modelPath] = await Promise.all([
    ensureModelRuntime(env, log),
    ensureModelWeights(weights, env, log),
  ]);
  return { python, modelPath, weights };
}

// `npm run setup:model`: install ahead of time.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const started = Date.now();
  const installed = await ensureLocalModel(process.env, (line) => console.log(line));
  console.log(`model runtime: xllamacpp==${XLLAMACPP_VERSION} (${installed.python})`);
  console.log(`model weights: ${installed.weights.name} (${installed.modelPath})`);
  console.log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
