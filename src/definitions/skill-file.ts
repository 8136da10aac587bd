import { parse as parseYaml } from 'yaml';

/** A SKILL.md split into its YAML frontmatter and its Markdown body. */
export interface SkillFile {
  /** Parsed frontmatter, or null when the file has none. */
  frontmatter: unknown;
  body: string;
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*\r?$/m;

/** Splits a skill file. Throws an Error with a readable message when the YAML is invalid. */
export function splitSkillFile(text: string): SkillFile {
  const opening = OPENING.exec(text);
  if (opening === null) return { frontmatter: null, body: text.replace(/^\uFEFF/, '') };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null) throw new Error('frontmatter opened with --- is never closed');
  const yamlText = rest.slice(0, closing.index);
  let afterClosing = rest.slice(closing.index + closing[0].length);
  afterClosing = afterClosing.replace(/^\r?\n/, '');
  let frontmatter: unknown;
  try {
    frontmatter = parseYaml(yamlText) ?? {};
  } catch (error) {
    throw new Error(`frontmatter is not valid YAML: ${(error as Error).message}`);
  }
  return { frontmatter, body: afterClosing };
}
