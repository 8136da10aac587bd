/** Small shared pieces every page uses: loading, an error banner, an empty state. */
import type { ReactNode } from 'react';
import { messageOf } from '../api/client';

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorBanner({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className="banner error">
      {messageOf(error)}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}
