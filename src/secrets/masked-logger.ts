/**
 * A logger whose every line is masked: an internal error's message or stack can quote whatever
 * the failing call carried, and log lines leave the process (terminals, files, collectors).
 */
import type { SecretMasker } from './masker.js';

/** The API's logger shape (src/api/http/errors.ts), restated so this module depends on nothing above it. */
export interface LineLogger {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
  info(message: string): void;
}

export function maskedLogger(logger: LineLogger, secrets: SecretMasker): LineLogger {
  return {
    error: (message, error) =>
      error === undefined
        ? logger.error(secrets.text(message))
        : logger.error(secrets.text(message), secrets.error(error)),
    warn: (message) => logger.warn(secrets.text(message)),
    info: (message) => logger.info(secrets.text(message)),
  };
}
