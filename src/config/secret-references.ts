/**
 * `${NAME}` references in the configuration: a secret is written as the name of the environment
 * variable that holds it, and resolved only inside the process that uses it, at the moment it is
 * used. The resolved value is handed to whoever needs it (an MCP transport) and never stored in
 * the configuration, so nothing that serializes the configuration can carry it.
 */

/** `${NAME}` with a POSIX-style variable name. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variable names `text` references, in order, without duplicates. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((match) => match[1]!))];
}

/** `text` with its references cut out: what is left is what the file itself says. */
export function withoutReferences(text: string): string {
  return text.replace(REFERENCE, '');
}

/** A referenced variable is not set where the value is needed. Names the field and variable only. */
export class MissingSecretError extends Error {
  override readonly name = 'MissingSecretError';
  constructor(
    readonly field: string,
    readonly variable: string,
  ) {
    super(`${field} references \${${variable}}, which is not set in the environment`);
  }
}

/**
 * The value `text` stands for: every `${NAME}` replaced by the variable's value. Throws
 * `MissingSecretError` for a variable that is unset or empty; an empty credential is never
 * what the operator meant, and failing names the field instead of sending nothing.
 *
 * @param field where the value was written, e.g. `mcpServers.github.env.GITHUB_TOKEN` (for errors)
 */
export function secretValue(
  text: string,
  field: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return text.replace(REFERENCE, (_match, name: string) => {
    const value = env[name];
    if (value === undefined || value === '') throw new MissingSecretError(field, name);
    return value;
  });
}

/**
 * A record of secret-bearing values (an MCP server's `env` or `headers`) with every reference
 * resolved. For the code that builds a transport, right before it starts it; the result must not
 * be kept anywhere that is serialized.
 *
 * @param field the record's path, e.g. `mcpServers.github.headers`
 */
export function resolveSecretReferences(
  record: Readonly<Record<string, string>>,
  field: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).map(([key, text]) => [key, secretValue(text, `${field}.${key}`, env)]),
  );
}
