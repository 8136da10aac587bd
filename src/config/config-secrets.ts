/**
 * Where `<workspace>/.subagents/config.yaml` keeps secrets. A secret should be referenced, not
 * written: `${NAME}` in a value, or a `*Env` key (`apiKeyEnv`) naming the variable. A literal
 * secret in the file is not fatal (the file worked before this check existed) but it is a
 * warning naming the field, and its value is masked wherever deputy records or answers text.
 *
 * The scan reads the file's raw YAML, before validation strips unknown keys, so a stray
 * `apiKey: sk-...` is found too.
 */
import { inspect } from 'node:util';
import { isSecretKey, looksLikeSecret, MIN_KNOWN_SECRET_CHARS } from '../shared/redact.js';
import { referencedVariables, withoutReferences } from './secret-references.js';

/** `apiKeyEnv` and its kind: the value names an environment variable, it is not the secret. */
const VARIABLE_NAME_KEY = /^[a-z][A-Za-z0-9]*Env$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An authorization scheme in front of a reference (`Bearer ${TOKEN}`) is not a secret. */
const AUTH_SCHEME = /^\s*(Bearer|Basic|Token|Bot|Digest)\b\s*/i;

/**
 * The secrets of one configuration: the environment variables it names (names are not secret)
 * and the literal values written into the file. The literals live in a private field, so
 * serializing or printing a configuration never shows them.
 */
export class ConfigSecrets {
  readonly #literals: readonly string[];
  /** Variable name -> the first field that names it, e.g. `mcpServers.github.env.GITHUB_TOKEN`. */
  readonly variables: ReadonlyMap<string, string>;

  constructor(literals: readonly string[], variables: ReadonlyMap<string, string>) {
    this.#literals = literals;
    this.variables = variables;
  }

  /** Literal secret values written in the file (each one was a warning at load). */
  literals(): readonly string[] {
    return this.#literals;
  }

  toJSON(): unknown {
    return { variables: [...this.variables.keys()], literals: this.#literals.length };
  }

  [inspect.custom](): string {
    return `ConfigSecrets { variables: [${[...this.variables.keys()].join(', ')}], literals: ${this.#literals.length} (not shown) }`;
  }
}

export interface ConfigSecretScan {
  secrets: ConfigSecrets;
  /** One line per literal secret: the field and how to reference it instead, never the value. */
  warnings: string[];
}

/** Finds every secret the raw configuration names or holds. */
export function scanConfigSecrets(raw: unknown): ConfigSecretScan {
  const literals: string[] = [];
  const variables = new Map<string, string>();
  const warnings: string[] = [];
  const nameVariable = (name: string, field: string): void => {
    if (VARIABLE_NAME.test(name) && !variables.has(name)) variables.set(name, field);
  };
  walk(raw, [], '', (path, key, value) => {
    const field = path.join('.');
    if (VARIABLE_NAME_KEY.test(key)) {
      nameVariable(value, field);
      return;
    }
    for (const name of referencedVariables(value)) nameVariable(name, field);
    const written = withoutReferences(value);
    const literal =
      looksLikeSecret(written) ||
      (isSecretKey(key) && written.replace(AUTH_SCHEME, '').trim() !== '');
    if (!literal) return;
    literals.push(written.trim());
    // A model or server may echo the credential without its scheme (`Bearer`, `Basic`).
    const bare = written.replace(AUTH_SCHEME, '').trim();
    if (bare !== written.trim()) literals.push(bare);
    warnings.push(literalWarning(path, key, value));
  });
  // `auth.tokens` is keyed by the names of the variables holding the tokens.
  const tokens = (raw as { auth?: { tokens?: unknown } } | null)?.auth?.tokens;
  if (isRecord(tokens)) {
    for (const name of Object.keys(tokens)) nameVariable(name, `auth.tokens.${name}`);
  }
  return { secrets: new ConfigSecrets(literals, variables), warnings };
}

/**
 * Warnings for referenced variables whose values are too short to mask: the operator should know
 * that such a value could appear in history, answers and logs.
 */
export function shortSecretWarnings(secrets: ConfigSecrets, env: NodeJS.ProcessEnv): string[] {
  return [...secrets.variables].flatMap(([name, field]) => {
    const value = env[name];
    return value !== undefined && value !== '' && value.length < MIN_KNOWN_SECRET_CHARS
      ? [
          `${field}: the value of ${name} is shorter than ${MIN_KNOWN_SECRET_CHARS} characters, too short to be masked in what deputy records, answers and logs`,
        ]
      : [];
  });
}

function literalWarning(path: string[], key: string, value: string): string {
  const field = path.join('.');
  if (path[0] === 'models') {
    return `${field} holds a literal secret; put it in an environment variable and name that variable with apiKeyEnv`;
  }
  const name = suggestedVariable(path, key);
  const scheme = AUTH_SCHEME.exec(value)?.[1];
  const reference = scheme === undefined ? `\${${name}}` : `${scheme} \${${name}}`;
  return `${field} holds a literal secret; write ${reference} and set it in the environment`;
}

/** `GITHUB_TOKEN` stays as it is; `mcpServers.github.headers.X-Api-Key` becomes `GITHUB_X_API_KEY`. */
function suggestedVariable(path: string[], key: string): string {
  if (/^[A-Z][A-Z0-9_]*$/.test(key)) return key;
  return path
    .slice(1)
    .filter((segment) => segment !== 'env' && segment !== 'headers' && !/^\d+$/.test(segment))
    .join('_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

/** Calls `visit` for every string leaf (and number leaf under a secret-named key). */
function walk(
  value: unknown,
  path: string[],
  key: string,
  visit: (path: string[], key: string, value: string) => void,
): void {
  if (typeof value === 'string') visit(path, key, value);
  else if (typeof value === 'number' && isSecretKey(key)) visit(path, key, String(value));
  else if (Array.isArray(value)) {
    // An item of a list is judged by the key that holds the list (`credentials: [...]`).
    value.forEach((item, index) => walk(item, [...path, String(index)], key, visit));
  } else if (isRecord(value)) {
    for (const [childKey, child] of Object.entries(value)) {
      walk(child, [...path, childKey], childKey, visit);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
