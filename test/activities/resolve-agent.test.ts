/**
 * The resolveAgent activity takes the snapshot the resolver built and finishes it for the
 * workflow: masked, stored in the blob store, and named by its reference. What it returns is
 * what history records.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/activities/blob-store.js';
import { resolveAgentActivity, type AgentResolver } from '../../src/activities/resolve-agent.js';
import { SnapshotStore } from '../../src/activities/snapshot-store.js';
import type { ResolvedAgent } from '../../src/shared/workflow-contract/activities.js';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import { createSecretMasker } from '../../src/secrets/masker.js';
import { FAILURE_TYPES } from '../../src/shared/workflow-contract/failures.js';
import { ANONYMOUS, input } from '../capabilities/helpers.js';

const SECRET = 'tok-7f3a9c1e5b';

let directory: string;
let blobs: FileBlobStore;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deputy-resolve-agent-'));
  blobs = new FileBlobStore(directory);
});

afterEach(() => rm(directory, { recursive: true, force: true }));

/** A resolver with one agent, whose prompt quotes a secret. */
function resolverOf(resolved: ResolvedAgent): AgentResolver {
  return {
    names: () => [resolved.snapshot.agentName],
    resolve: async (agent) => (agent === resolved.snapshot.agentName ? resolved : null),
  };
}

const resolved: ResolvedAgent = {
  snapshot: resolveCapabilities(input({ systemPrompt: `Use the token ${SECRET}.\n` })),
  workspaceRoot: '/ws',
  writableRoots: ['/ws'],
};

describe('resolveAgentActivity', () => {
  it('returns the snapshot masked, stored under the reference it returns', async () => {
    const result = await resolveAgentActivity(
      resolverOf(resolved),
      { agent: 'helper', caller: ANONYMOUS },
      createSecretMasker([SECRET]),
      new SnapshotStore(blobs),
    );
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result.snapshot.systemPrompt).toContain('Use the token __redacted__.');
    expect(await blobs.get(result.snapshotRef)).toBe(JSON.stringify(result.snapshot));
    // The shape history records: the resolver's fields in its order, the reference last.
    expect(Object.keys(result)).toEqual([
      'snapshot',
      'workspaceRoot',
      'writableRoots',
      'snapshotRef',
    ]);
  });

  it('fails without retry, naming the agents there are, when the name is unknown', async () => {
    const failure = await resolveAgentActivity(
      resolverOf(resolved),
      { agent: 'nobody', caller: ANONYMOUS },
      createSecretMasker([]),
      new SnapshotStore(blobs),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: FAILURE_TYPES.agentNotFound,
      nonRetryable: true,
      message: "no agent named 'nobody' (known agents: helper)",
    });
  });
});
