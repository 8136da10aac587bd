/**
 * A recording stand-in for the Delegations facade, for routing, validation, auth and
 * error-mapping tests only. Delegation behaviour is tested against real Temporal in
 * test/integration/api.test.ts.
 */
import type { ApprovalCard } from '../../src/shared/delegation.js';
import type { Delegations } from '../../src/temporal/delegations/facade.js';

export type Call = { method: keyof Delegations; args: unknown[] };

export function stubDelegations(overrides: Partial<Delegations> = {}): {
  delegations: Delegations;
  calls: Call[];
} {
  const calls: Call[] = [];
  const unexpected =
    (method: keyof Delegations) =>
    async (...args: unknown[]) => {
      calls.push({ method, args });
      throw new Error(`stub: ${method} was not expected in this test`);
    };
  const methods: (keyof Delegations)[] = [
    'start',
    'find',
    'owner',
    'get',
    'list',
    'stop',
    'cards',
    'decide',
    'events',
    'settle',
    'ping',
  ];
  // Temporal answers unless a test says otherwise: /health pings it (not recorded as a call).
  const defaults: Partial<Record<keyof Delegations, () => Promise<unknown>>> = {
    ping: async () => undefined,
  };
  const delegations = Object.fromEntries(
    methods.map((method) => {
      const override = overrides[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      const fn =
        override === undefined
          ? (defaults[method] ?? unexpected(method))
          : async (...args: unknown[]) => {
              calls.push({ method, args });
              return override(...args);
            };
      return [method, fn];
    }),
  ) as unknown as Delegations;
  return { delegations, calls };
}

/** What the stub's `start` answers: delegation d-1 of agent demo in the default session. */
export const startedD1 = async () => ({
  delegationId: 'd-1',
  workflowId: 'delegation/default/d-1',
  session: 'default',
  agent: 'demo',
});

/** A card of delegation d-1 for `tool`, pending or already approved by alice. */
export function cardOfD1(
  id: string,
  tool: string,
  status: 'pending' | 'approved' = 'pending',
): ApprovalCard {
  return {
    id,
    delegationId: 'd-1',
    workflowId: 'delegation/default/d-1',
    session: 'default',
    agent: 'demo',
    tool,
    arguments: {},
    reason: 'asks',
    openedAt: '2026-01-01T00:00:00.000Z',
    state:
      status === 'pending'
        ? { status }
        : { status, reason: null, decidedAt: '2026-01-01T00:00:01.000Z', decidedBy: 'alice' },
  };
}
