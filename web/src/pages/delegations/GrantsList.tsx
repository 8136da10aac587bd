/**
 * What a person allowed for the rest of this delegation (its grants, from its state): the
 * tool, its scope, who granted it from which card, and Revoke (`DELETE
 * /delegations/:id/grants/:n`) while it still covers anything. A revoked grant stays listed.
 */
import { useState } from 'react';
import { messageOf } from '../../api/client';
import { revokeGrant, type Grant } from '../../api/steering';

function scopeText(grant: Grant): string {
  const { scope } = grant;
  if (scope.kind === 'paths') return `paths ${scope.paths.join(', ')}`;
  if (scope.kind === 'commands') return `commands ${scope.patterns.join(', ')}`;
  return `MCP tool ${scope.target}`;
}

export function GrantsList({
  delegationId,
  grants,
  mayRevoke,
  onRevoked,
}: {
  delegationId: string;
  grants: Grant[];
  /** Not after it finished (nothing left to cover), nor for a caller shown a summary only. */
  mayRevoke: boolean;
  onRevoked(): void;
}) {
  const [busy, setBusy] = useState<number | null>(null);
  const [note, setNote] = useState<{ text: string; tone: 'info' | 'error' } | null>(null);
  const revoke = async (grant: Grant) => {
    setBusy(grant.n);
    setNote(null);
    try {
      await revokeGrant(delegationId, grant.n);
      setNote({ text: `Grant ${grant.n} revoked: its next call asks again.`, tone: 'info' });
      onRevoked();
    } catch (error) {
      setNote({ text: `Grant ${grant.n} not revoked: ${messageOf(error)}`, tone: 'error' });
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby="grants-heading">
      <h2 id="grants-heading">Allowed for the rest ({grants.length})</h2>
      <div aria-live="polite">
        {note === null ? null : <p className={`banner ${note.tone}`}>{note.text}</p>}
      </div>
      {grants.length === 0 ? (
        <p className="empty">Nothing is allowed beyond this delegation&apos;s definition.</p>
      ) : (
        <ul className="grant-list">
          {grants.map((grant) => (
            <li key={grant.n} className="panel">
              <span>
                <strong>Grant {grant.n}</strong>: <code>{grant.tool}</code> for {scopeText(grant)},
                from card <code>{grant.cardId}</code>
                {grant.grantedBy === null ? '' : ` by ${grant.grantedBy}`}
                {grant.revoked === undefined
                  ? ''
                  : ` · revoked${grant.revoked.by === null ? '' : ` by ${grant.revoked.by}`}`}
              </span>
              {grant.revoked === undefined && mayRevoke ? (
                <button
                  type="button"
                  className="danger"
                  disabled={busy !== null}
                  aria-label={`Revoke grant ${grant.n}`}
                  onClick={() => void revoke(grant)}
                >
                  {busy === grant.n ? 'Revoking…' : 'Revoke'}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
