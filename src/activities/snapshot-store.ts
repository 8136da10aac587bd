/**
 * Capability snapshots by reference. `resolveAgent` stores the snapshot it returns in the blob
 * store (content-addressed, shared by every worker: the data directory or PostgreSQL, see
 * src/activities/blob-stores.ts), and tool and model calls name it by its digest: a round's
 * history then holds the call, not another copy of every tool schema and the whole system prompt.
 * The snapshot itself still sits in history once, in `resolveAgent`'s result, which is
 * what replay and a lost blob fall back on.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { CapabilitySnapshot } from '../shared/capability-snapshot.js';
import { FAILURE_TYPES } from '../shared/workflow-contract/failures.js';
import type { BlobRef } from '../shared/model-contract.js';
import { BlobMissingError, type BlobStore } from './blob-store.js';
import type {
  CallModelInput,
  ModelCall,
  RunToolInput,
  ToolRun,
} from '../shared/workflow-contract/activities.js';

/** Parsed snapshots kept in memory: a worker's recent delegations skip the blob read and parse. */
const CACHED_SNAPSHOTS = 512;

export class SnapshotStore {
  private readonly cache = new Map<string, CapabilitySnapshot>();

  constructor(private readonly blobs: BlobStore) {}

  async put(snapshot: CapabilitySnapshot): Promise<BlobRef> {
    const ref = await this.blobs.put(JSON.stringify(snapshot));
    this.remember(ref.sha256, snapshot);
    return ref;
  }

  /**
   * The snapshot `ref` names; a non-retryable `SnapshotMissing` failure when the store lost it.
   * A store that cannot be reached throws its own (retryable) error: the blob may well be there.
   */
  async get(ref: BlobRef): Promise<CapabilitySnapshot> {
    const cached = this.cache.get(ref.sha256);
    if (cached !== undefined) {
      this.remember(ref.sha256, cached);
      return cached;
    }
    let snapshot: CapabilitySnapshot;
    try {
      snapshot = JSON.parse(await this.blobs.get(ref)) as CapabilitySnapshot;
    } catch (error) {
      if (!(error instanceof BlobMissingError)) throw error;
      throw ApplicationFailure.nonRetryable(
        `capability snapshot: ${error.message}`,
        FAILURE_TYPES.snapshotMissing,
      );
    }
    this.remember(ref.sha256, snapshot);
    return snapshot;
  }

  /** A tool call's input with its snapshot at hand, whichever way it was carried. */
  async toolRunOf({ snapshot, snapshotRef, call }: RunToolInput): Promise<ToolRun> {
    return { snapshot: snapshot ?? (await this.get(snapshotRef)), call };
  }

  /** A model call's input with the snapshot's prompt and tools, whichever way they came. */
  async modelCallOf(input: CallModelInput): Promise<ModelCall> {
    if (input.snapshotRef === undefined) return input;
    const { snapshotRef, ...context } = input;
    const snapshot = await this.get(snapshotRef);
    return { ...context, system: snapshot.systemPrompt, tools: snapshot.tools };
  }

  /** Least recently used goes first: a Map iterates in insertion order. */
  private remember(sha256: string, snapshot: CapabilitySnapshot): void {
    this.cache.delete(sha256);
    this.cache.set(sha256, snapshot);
    if (this.cache.size > CACHED_SNAPSHOTS) {
      this.cache.delete(this.cache.keys().next().value!);
    }
  }
}
