/**
 * What a refused request tells a person: a 422's issues on their fields (the API's own words,
 * the limit a message broke), else its message; with the status, so a 409 reads as one.
 */
import { ApiError, messageOf } from '../../api/client';

export function refusalText(error: unknown): string {
  if (error instanceof ApiError && error.issues.length > 0) {
    const issues = error.issues
      .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`))
      .join('; ');
    return `${issues} (HTTP ${error.status})`;
  }
  return messageOf(error);
}
