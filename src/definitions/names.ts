/** The registry key rule: lower-case letters, digits and hyphens, not starting with a hyphen. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

/** Longest name accepted: names become file and directory names, so keep them well under OS limits. */
export const MAX_NAME_LENGTH = 128;

export function isValidName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && NAME_PATTERN.test(name);
}

/** True when a name tries to reach another directory; such a name is never used as a key or a path. */
export function looksLikePath(name: string): boolean {
  return name.includes('/') || name.includes('\\') || name.includes('..') || name.includes('\0');
}

/** `foo.md` -> `foo`; the directory part is ignored. */
export function fileStem(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.toLowerCase().endsWith('.md') ? base.slice(0, -3) : base;
}

/**
 * Turns an arbitrary string into a valid name (`powershell-5.1-expert` -> `powershell-5-1-expert`),
 * or returns `undefined` when nothing usable is left.
 */
export function slugifyName(raw: string): string | undefined {
  const slug = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/-+$/, '');
  return slug.length > 0 && NAME_PATTERN.test(slug) ? slug : undefined;
}
