/**
 * The `sandbox` field of a definition, and the workspace default of the same shape in
 * `.subagents/config.yaml`: `off`, `on` (the workspace read-write, nothing else), or what else
 * the agent's processes may touch. Capability resolution turns it into the snapshot's bounds
 * (src/capabilities/sandbox-bounds.ts).
 */
import { z } from 'zod';
import type { SandboxLimits } from '../shared/sandbox-contract.js';

export const SANDBOX_SWITCHES = ['off', 'on'] as const;
export const SANDBOX_KEYS = ['read', 'write', 'env', 'limits'] as const;
export const SANDBOX_LIMIT_KEYS = ['cpuSeconds', 'memoryMiB', 'processes'] as const;

/** What the agent's processes may touch besides the workspace and the system folders. */
export interface SandboxSpec {
  /** Paths readable inside (workspace-relative or absolute). */
  read?: string[];
  /** Paths readable and writable inside (workspace-relative or absolute). */
  write?: string[];
  /** Names of the worker's environment variables passed in. */
  env?: string[];
  limits?: SandboxLimits;
}

export type SandboxDeclaration = (typeof SANDBOX_SWITCHES)[number] | SandboxSpec;

export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ENV_NAME_RULE = 'must be an environment variable name (letters, digits, _)';
export const TILDE_RULE =
  "'~' is not expanded: write the path relative to the workspace or absolute";

export const SandboxPathSchema = z
  .string()
  .regex(/\S/, 'must not be empty')
  .refine((p) => !p.startsWith('~'), { message: TILDE_RULE });

const Ceiling = z.number().int().positive();

export const SandboxSpecSchema = z.strictObject({
  read: z.array(SandboxPathSchema).optional(),
  write: z.array(SandboxPathSchema).optional(),
  env: z.array(z.string().regex(ENV_NAME_PATTERN, ENV_NAME_RULE)).optional(),
  limits: z
    .strictObject({
      cpuSeconds: Ceiling.optional(),
      memoryMiB: Ceiling.optional(),
      processes: Ceiling.optional(),
    })
    .optional(),
});

export const SandboxDeclarationSchema = z
  .union([z.enum(SANDBOX_SWITCHES), SandboxSpecSchema])
  .describe(
    '`off`, `on` (the workspace read-write only), or {read, write, env, limits}: what bash may touch',
  );
