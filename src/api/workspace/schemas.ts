/** Query and answers of the workspace pickers (routes.ts), as zod schemas. */
import { z } from 'zod';

/** Longer paths are refused unread: no workspace directory is nested that deep. */
export const MAX_DIRECTORY_PATH_CHARS = 4096;

export const DirectoriesQuerySchema = z.strictObject({
  path: z
    .string()
    .max(MAX_DIRECTORY_PATH_CHARS)
    .optional()
    .describe("A workspace-relative directory with forward slashes; '' or absent: the workspace"),
});

const SkillLayerSchema = z.enum([
  'workspace',
  'ecosystem-workspace',
  'system',
  'ecosystem-user',
  'plugin',
]);

const DiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  path: z.string(),
  code: z.string(),
  message: z.string(),
});

export const SkillListSchema = z.object({
  v: z.literal(1),
  skills: z.array(
    z.object({
      name: z.string().describe('What a definition writes in `skills`'),
      description: z.string(),
      layer: SkillLayerSchema.describe('The discovery layer it was found in (the first one wins)'),
      location: z
        .string()
        .describe('Its SKILL.md: workspace-relative when inside the workspace, else absolute'),
    }),
  ),
  diagnostics: z
    .array(DiagnosticSchema)
    .describe('Skills skipped (invalid SKILL.md) or shadowed by a higher layer'),
});
export type SkillList = z.infer<typeof SkillListSchema>;

export const DirectoryListSchema = z.object({
  v: z.literal(1),
  path: z.string().describe("The directory listed, normalized and workspace-relative; '' = root"),
  parent: z.string().nullable().describe("Its parent ('' = root); null for the root itself"),
  directories: z.array(
    z.object({
      name: z.string(),
      path: z.string().describe('Workspace-relative, forward slashes'),
      glob: z
        .string()
        .nullable()
        .describe(
          'The knowledge glob for every file below it (`<path>/**/*`, glob characters escaped); null when the name cannot be written as one (a backslash)',
        ),
    }),
  ),
  truncated: z.boolean().describe('More subdirectories than are listed (the first ones by name)'),
});
export type DirectoryList = z.infer<typeof DirectoryListSchema>;
