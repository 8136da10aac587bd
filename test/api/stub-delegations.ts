/**
 * A recording stand-in for the Delegations facade, for routing, validation, auth and
 * error-mapping tests only. Delegation behaviour is tested against real Temporal in
 * test/integration/api.test.ts.
 */
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
