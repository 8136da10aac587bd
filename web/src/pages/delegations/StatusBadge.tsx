import type { DelegationStatus } from '../../api/types';

export function StatusBadge({ status }: { status: DelegationStatus }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}
