/**
 * The configured secret values, known Node-side only, and a masker built on them. Activities mask
 * what they return (it lands in workflow history), the API masks what it answers and logs, the
 * worker masks its log lines. The workflow never receives the values: they would be recorded.
 */
import type { DeputyConfig } from '../config/schema.js';
import { apiKeyVariable, PROVIDER_KEY_VARIABLES } from '../config/model-keys.js';
import { redactSecrets, redactSecretText } from '../shared/redact.js';
import { environmentSecretValues } from './environment-secrets.js';
import { linkKeyValues } from './link-keys.js';

export interface SecretMasker {
  /** `text` with every known secret value and every secret-looking part replaced by `__redacted__`. */
  text(text: string): string;
  /**
   * A deep copy of `value` with `text()` applied to every string (and known values cut out of
   * object keys). Values under secret-named keys are judged like any other string, so the shape
   * of an answer or a snapshot never changes.
   */
  value<T>(value: T): T;
  /**
   * The same error with its message, stack, details and causes masked, changed in place so its
   * class survives (Temporal records a failure's message and stack, and the worker logs them).
   * A thrown non-Error is returned masked.
   */
  error<E>(error: E): E;
}

/** The part of the configuration that says where secrets are. */
export type SecretSources = Pick<DeputyConfig, 'secrets'> & {
  models: Pick<DeputyConfig['models'], 'catalog'>;
  /** The variable holding deputy's own MCP bearer token (sent to `auth: bearer` servers). */
  mcpBearerTokenEnv?: string;
  /** Where one-tap link keys are (src/secrets/link-keys.ts); DEPUTY_LINK_SECRET when absent. */
  links?: DeputyConfig['links'];
};

/**
 * Every secret value this configuration knows of: literal values written in the file, and the
 * values, when set in `env`, of the variables it names (`${NAME}` references, `apiKeyEnv`,
 * `auth.tokens`) and of the providers' key variables, whatever the catalog says, and the connection URLs deployment
 * variables hold (`DEPUTY_BLOB_STORE_URL`, src/secrets/environment-secrets.ts).
 */
export function configuredSecretValues(
  config: SecretSources,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  // The providers' own key variables always: a worker's environment may hold them whatever the
  // catalog says, and an entry with a `baseUrl` (which is sent no key) must not unmask them.
  const names = new Set([
    ...config.secrets.variables.keys(),
    ...Object.values(PROVIDER_KEY_VARIABLES),
  ]);
  if (config.mcpBearerTokenEnv !== undefined) names.add(config.mcpBearerTokenEnv);
  for (const entry of Object.values(config.models.catalog)) {
    const name = apiKeyVariable(entry);
    if (name !== undefined) names.add(name);
  }
  const values = [...names].flatMap((name) => {
    const value = env[name];
    return value === undefined || value === '' ? [] : [value];
  });
  return [
    ...config.secrets.literals(),
    ...values,
    ...environmentSecretValues(env),
    // The link keys: DEPUTY_LINK_SECRET even when no `links` section names a variable.
    ...linkKeyValues(config, env),
  ];
}

/** A masker for this configuration's secrets, read from `env` now. */
export function secretMaskerFor(
  config: SecretSources,
  env: NodeJS.ProcessEnv = process.env,
): SecretMasker {
  return createSecretMasker(configuredSecretValues(config, env));
}

export function createSecretMasker(known: readonly string[]): SecretMasker {
  const values = [...known];
  const text = (input: string): string => redactSecretText(input, values);
  const value = <T>(input: T): T => redactSecrets(input, { known: values, byKey: false }) as T;
  const error = <E>(input: E): E => {
    if (typeof input === 'string') return text(input) as E;
    maskError(input, text, value, new Set());
    return input;
  };
  return { text, value, error };
}

function maskError(
  error: unknown,
  text: (input: string) => string,
  value: <T>(input: T) => T,
  seen: Set<unknown>,
): void {
  if (!(error instanceof Error) || seen.has(error)) return;
  seen.add(error);
  error.message = text(error.message);
  if (error.stack !== undefined) error.stack = text(error.stack);
  // ApplicationFailure.details are recorded as payloads, like the message.
  const failure = error as Error & { details?: unknown };
  if (Array.isArray(failure.details)) failure.details = value(failure.details);
  maskError(error.cause, text, value, seen);
}
