/**
 * A worker refuses a namespace that lacks deputy's search attributes (DeputyTokens
 * came later; a cluster set up before it would otherwise hang every delegation on its first
 * upsert). Checked on the dev server: its `default` namespace has them all, a namespace made
 * here has none.
 */
import { randomUUID } from 'node:crypto';
import { msToTs } from '@temporalio/common/lib/time.js';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../src/shared/workflow-contract/search-attributes.js';
import { assertSearchAttributes } from '../../src/temporal/search-attribute-check.js';

let connection: NativeConnection;
beforeAll(async () => {
  connection = await NativeConnection.connect({ address: inject('temporalAddress') });
});
afterAll(() => connection?.close());

describe('the search attributes a worker needs', () => {
  it('passes on a namespace that has them all', async () => {
    const warnings: string[] = [];
    await assertSearchAttributes(connection, 'default', (message) => warnings.push(message));
    expect(warnings).toEqual([]);
  });

  it('refuses one that lacks them, with the command registering each', async () => {
    const namespace = `bare-${randomUUID().slice(0, 8)}`;
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    const attempt = assertSearchAttributes(connection, namespace, () => undefined);
    await expect(attempt).rejects.toThrow(
      `namespace ${namespace} lacks deputy's search attribute(s) ${CUSTOM_SEARCH_ATTRIBUTES.map((key) => key.name).join(', ')}`,
    );
    await expect(attempt).rejects.toThrow(
      `temporal operator search-attribute create --namespace ${namespace} --name DeputyTokens --type Int`,
    );
  });

  it('warns and lets the worker start when the list cannot be read', async () => {
    const warnings: string[] = [];
    await assertSearchAttributes(connection, `no-such-${randomUUID().slice(0, 8)}`, (message) =>
      warnings.push(message),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not list the search attributes of namespace no-such-/);
  });
});
