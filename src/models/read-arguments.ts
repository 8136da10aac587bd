/**
 * A tool call's arguments as a model sent them (a JSON string on the OpenAI wire, an object on
 * Anthropic's or in a call written as text), read into the object a tool takes. Arguments that
 * cannot be read are not guessed: the call is marked invalid, the model is told why, and the tool
 * never runs with made-up (empty) arguments.
 */

export type ReadArguments =
  | { arguments: Record<string, unknown>; invalid?: undefined }
  | { arguments: Record<string, unknown>; invalid: string };

/** Longest excerpt of unreadable arguments quoted back to the model. */
const EXCERPT_CHARS = 200;

/** An empty or absent value means "no arguments" (some local servers send '' for none). */
export function readArguments(raw: unknown): ReadArguments {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    return { arguments: {} };
  }
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    return { arguments: parsed as Record<string, unknown> };
  }
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  const excerpt = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}...` : text;
  return {
    arguments: {},
    invalid:
      `its arguments are not a JSON object, so it was not run: ${excerpt}. ` +
      'Call it again with its arguments as one JSON object.',
  };
}
