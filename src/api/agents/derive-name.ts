/**
 * A name for a generated agent, made from what the user asked for: a few telling words of the
 * prompt as a slug (`An agent that reviews pull requests for security` -> `reviews-pull-requests
 * -security`). Made here rather than asked of the model, so it is always a valid name.
 */
import { slugifyName } from '../../definitions/names.js';

/** Shorter than MAX_NAME_LENGTH: a name is typed, listed and used as a file name. */
export const MAX_GENERATED_NAME_LENGTH = 64;

/** Said in no name: they describe every agent, or only hold the sentence together. */
const FILLER = new Set(
  (
    'a an the this that these those which who whom whose it its is are be to of for in on at by ' +
    'with from and or as into about agent agents subagent assistant bot i me my we our you your ' +
    'want need please create make build write generate should can could would will helps help'
  ).split(' '),
);

const MAX_WORDS = 4;

/** Used when neither text has a usable word (a prompt in a script without Latin letters). */
export const FALLBACK_AGENT_NAME = 'generated-agent';

/** A valid agent name (`^[a-z0-9][a-z0-9-]*$`, at most 64 characters), never empty. */
export function deriveAgentName(...texts: string[]): string {
  for (const text of texts) {
    const name = nameFrom(text);
    if (name !== undefined) return name;
  }
  return FALLBACK_AGENT_NAME;
}

function nameFrom(text: string): string | undefined {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !FILLER.has(word))
    .slice(0, MAX_WORDS);
  const slug = slugifyName(words.join('-'));
  if (slug === undefined) return undefined;
  return slug.slice(0, MAX_GENERATED_NAME_LENGTH).replace(/-+$/, '') || undefined;
}
