/**
 * A configuration that cannot be used (a missing workspace, a bad port, an invalid file). Its
 * own module, without the configuration schema, so the CLI's error mapping loads nothing heavy.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
