/**
 * A duration as the configuration, definitions and requests write it: `90s`, `30m`, `2h`,
 * `1h30m`; positive, at most 30 days (the rule is src/shared/duration.ts).
 */
import { z } from 'zod';
import { parseDuration } from '../shared/duration.js';

export const DurationSchema = z.string().superRefine((text, ctx) => {
  const parsed = parseDuration(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.problem });
});
