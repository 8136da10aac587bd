/**
 * `links:` in `.subagents/config.yaml`: signed one-tap links for approving or denying a card
 * (src/secrets/link-*.ts, docs/links.md). The keys are never written here: `secretEnv` names the
 * environment variables holding them, as `auth.tokens` and `apiKeyEnv` name theirs.
 */
import { z } from 'zod';
import { DurationSchema } from './duration.js';

const VariableNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
  message: 'must be an environment variable name',
});

export const LinksConfigSchema = z
  .object({
    /**
     * The variable (or variables, in order) holding the signing keys. The first key found signs,
     * every key verifies: to rotate, put a new variable first, and remove the old one once its
     * links have expired. A value may also hold several keys separated by commas. Default
     * `DEPUTY_LINK_SECRET`.
     */
    secretEnv: z.union([VariableNameSchema, z.array(VariableNameSchema).min(1)]).optional(),
    /** How long a link works, at most: the card's deadline cuts it shorter. Default `24h`. */
    expiry: DurationSchema.optional(),
    /**
     * The API's address as the people who open links reach it (`https://deputy.example.com`,
     * a path prefix allowed). DEPUTY_PUBLIC_URL wins. Default `http://<api host>:<api port>`.
     */
    publicUrl: z
      .url()
      .refine((url) => /^https?:\/\//i.test(url), { message: 'must be an http or https URL' })
      .optional(),
  })
  .strict();
export type LinksConfig = z.infer<typeof LinksConfigSchema>;
