/** Who decided a card from this terminal: `cli:<login name>` is recorded on the card. */
import { userInfo } from 'node:os';

export function cliUser(): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry (some containers): the decision is still recorded, by an unnamed user.
    return 'unknown';
  }
}
