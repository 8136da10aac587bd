/**
 * The console's only way to the API: same-origin fetch with the bearer token (when auth is on)
 * and every refusal turned into an ApiError carrying the API's own body, so a page can show the
 * message, and a 422's issues on their fields.
 */
import { currentToken } from './token';

/** One field problem of a 422 (`issues` in the API's error body). */
export interface ApiIssue {
  path: string;
  message: string;
}

export interface ApiErrorBody {
  error?: string;
  code?: string;
  message?: string;
  issues?: ApiIssue[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message ?? `the API answered ${status}`);
    this.name = 'ApiError';
  }

  get issues(): ApiIssue[] {
    return this.body.issues ?? [];
  }
}

/** Listeners told when the API refuses the token (401), so the shell can ask for one. */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function authHeaders(): Record<string, string> {
  const token = currentToken();
  return token === null ? {} : { authorization: `Bearer ${token}` };
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...authHeaders(),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal === undefined ? {} : { signal }),
  });
  if (!response.ok) throw await refusalOf(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text === '' ? {} : safeJson(text)) as T;
}

/** The ApiError of a refused answer, with the API's own body; a 401 reopens the token prompt. */
export async function refusalOf(response: Response): Promise<ApiError> {
  if (response.status === 401) for (const listener of unauthorizedListeners) listener();
  const text = await response.text().catch(() => '');
  const parsed: unknown = text === '' ? {} : safeJson(text);
  return new ApiError(
    response.status,
    parsed !== null && typeof parsed === 'object' ? (parsed as ApiErrorBody) : { message: text },
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 500) };
  }
}

/** A message for any failure, for banners. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (HTTP ${error.status})`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Path segments are ids and names from the API; encode them anyway. */
export const seg = encodeURIComponent;
