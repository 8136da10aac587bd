/**
 * Bound a tool result before it enters workflow history. Truncation is loud, never
 * silent: the notice tells the model how much it did not see, so it can narrow its request.
 */
export function limitText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = Math.max(0, Math.floor(maxChars));
  // Do not split a surrogate pair: half an emoji is not valid text.
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return `${text.slice(0, cut)}\n${truncationNotice(cut, text.length)}`;
}

/** The one wording of "you did not see everything", shared by the tools. */
export function truncationNotice(shown: number, total: number, unit = 'characters'): string {
  return `[output truncated: showed ${shown} of ${total} ${unit}]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
