import { describe, expect, it } from 'vitest';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import { input } from './helpers.js';

describe('the sandbox in the snapshot', () => {
  it('is absent when off or declared nowhere', () => {
    expect(resolveCapabilities(input()).sandbox).toBeUndefined();
    expect(resolveCapabilities(input({ sandbox: 'off' })).sandbox).toBeUndefined();
    const workspaceOn = input({ sandbox: 'off' });
    workspaceOn.config.sandbox = 'on';
    expect(resolveCapabilities(workspaceOn).sandbox).toBeUndefined();
  });

  it('on: the workspace read-write and nothing else', () => {
    expect(resolveCapabilities(input({ sandbox: 'on' })).sandbox).toEqual({
      readOnly: [],
      readWrite: ['/ws'],
      env: [],
      limits: {},
    });
  });

  it("takes the workspace's default when the definition declares none", () => {
    const withDefault = input();
    withDefault.config.sandbox = { read: ['/srv/shared'], env: ['CI'] };
    expect(resolveCapabilities(withDefault).sandbox).toEqual({
      readOnly: ['/srv/shared'],
      readWrite: ['/ws'],
      env: ['CI'],
      limits: {},
    });
  });

  it('resolves paths against the workspace, the workspace first, symlinks followed', () => {
    const snapshot = resolveCapabilities(
      input(
        {
          sandbox: {
            read: ['docs', '/srv/data', 'out'],
            write: ['out', '.', 'link'],
            env: ['A', 'A'],
            limits: { cpuSeconds: 5 },
          },
        },
        { realpath: (p) => (p === '/ws/link' ? '/elsewhere/target' : p) },
      ),
    );
    expect(snapshot.sandbox).toEqual({
      readOnly: ['/ws/docs', '/srv/data'],
      readWrite: ['/ws', '/ws/out', '/elsewhere/target'],
      env: ['A'],
      limits: { cpuSeconds: 5 },
    });
  });

  it("leaves out a path into deputy's data directory or configuration, and says so", () => {
    const snapshot = resolveCapabilities(
      input(
        { sandbox: { read: ['.deputy/memory', '.subagents/config.yaml', 'sneaky'] } },
        { realpath: (p) => (p === '/ws/sneaky' ? '/ws/.deputy' : p) },
      ),
    );
    expect(snapshot.sandbox?.readOnly).toEqual([]);
    expect(
      snapshot.diagnostics
        .filter((d) => d.code === 'sandbox.hidden-path')
        .map((d) => [d.severity, d.path]),
    ).toEqual([
      ['error', 'sandbox.read[0]'],
      ['error', 'sandbox.read[1]'],
      ['error', 'sandbox.read[2]'],
    ]);
  });
});
