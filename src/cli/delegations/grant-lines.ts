/** How `deputy status` shows what a person allowed for the rest of a delegation. */
import { describeGrant } from '../../policy/grants.js';
import type { Grant } from '../../shared/policy-contract.js';

export function grantLines(grants: readonly Grant[]): string[] {
  if (grants.length === 0) return [];
  return [
    '  allowed for the rest (revoke: deputy revoke <id> <n>):',
    ...grants.map((grant) => {
      const revoked = grant.revoked === undefined ? '' : ` (revoked ${grant.revoked.at})`;
      const by = grant.grantedBy === null ? '' : ` by ${grant.grantedBy}`;
      return `    ${grant.n}. ${describeGrant(grant)}${by} from card ${grant.cardId}${revoked}`;
    }),
  ];
}
