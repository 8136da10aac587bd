import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileBlobStore, type BlobStore } from '../../src/activities/blob-store.js';
import { SnapshotStore } from '../../src/activities/snapshot-store.js';
import type { ModelCall, ModelCallContext } from '../../src/shared/workflow-contract/activities.js';
import type { CapabilitySnapshot } from '../../src/shared/capability-snapshot.js';

const snapshot = {
  agentName: 'reviewer',
  systemPrompt: 'Review what you are given.',
  tools: [{ name: 'read', description: 'Read a file', toolClass: 'read', parameters: {} }],
} as unknown as CapabilitySnapshot;
const call = { id: 'c1', name: 'read', arguments: { path: 'a.txt' } };

let directory: string;
let blobs: BlobStore;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deputy-snapshots-'));
  blobs = new FileBlobStore(directory);
});

describe('SnapshotStore', () => {
  it('gives a tool or model call its snapshot from the reference, in a fresh store too', async () => {
    const ref = await new SnapshotStore(blobs).put(snapshot);
    // A fresh store has nothing cached: it reads the blob another worker wrote.
    const store = new SnapshotStore(blobs);
    expect(await store.toolRunOf({ snapshotRef: ref, call })).toEqual({ snapshot, call });
    const context: ModelCallContext = {
      agentName: 'reviewer',
      level: 'project',
      model: 'm',
      transcript: [],
    };
    expect(await store.modelCallOf({ ...context, snapshotRef: ref })).toEqual({
      ...context,
      system: 'Review what you are given.',
      tools: snapshot.tools,
    });
  });

  it('passes a snapshot sent whole through untouched', async () => {
    const store = new SnapshotStore(blobs);
    expect(await store.toolRunOf({ snapshot, call })).toEqual({ snapshot, call });
    const inline: ModelCall = {
      agentName: 'a',
      level: 'user',
      model: 'm',
      transcript: [],
      system: 's',
      tools: [],
    };
    expect(await store.modelCallOf(inline)).toBe(inline);
  });

  it('answers a lost or corrupt blob with a non-retryable SnapshotMissing failure', async () => {
    const ref = await new SnapshotStore(blobs).put(snapshot);
    const path = join(directory, ref.sha256.slice(0, 2), `${ref.sha256}.txt`);
    await writeFile(path, '{"agentName":"tampered"}');
    const corrupt = await new SnapshotStore(blobs).get(ref).catch((error: unknown) => error);
    expect(corrupt).toBeInstanceOf(ApplicationFailure);
    expect(corrupt).toMatchObject({ type: 'SnapshotMissing', nonRetryable: true });
    expect((corrupt as Error).message).toMatch(
      /capability snapshot: blob [0-9a-f]{64} .* is corrupt/,
    );

    await rm(directory, { recursive: true, force: true });
    const lost = await new SnapshotStore(blobs).get(ref).catch((error: unknown) => error);
    expect(lost).toMatchObject({ type: 'SnapshotMissing', nonRetryable: true });
    expect((lost as Error).message).toMatch(/is missing from .*share deputy's data directory/);
  });

  it('keeps what it stored in memory: a worker does not re-read its own snapshots', async () => {
    const store = new SnapshotStore(blobs);
    const ref = await store.put(snapshot);
    await rm(directory, { recursive: true, force: true });
    expect(await store.get(ref)).toEqual(snapshot);
  });
});
