/**
 * The bearer token, kept in this tab's sessionStorage only: closing the tab forgets it, and no
 * other site can read it (the page's policy allows no other origin).
 */
const KEY = 'deputy.token';

export function currentToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function setToken(token: string | null): void {
  if (token === null || token.trim() === '') sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, token.trim());
}
