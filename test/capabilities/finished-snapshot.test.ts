/**
 * resolveCapabilities builds the whole snapshot a delegation runs with, the definition's hooks
 * included: nothing is added to it afterwards. The hooks come last, where the agent resolver
 * once appended them, so a snapshot serializes to the bytes recorded histories hold.
 */
import { describe, expect, it } from 'vitest';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import type { HookCommand } from '../../src/definitions/definition.js';
import { input } from './helpers.js';

const hooks: Record<string, HookCommand[]> = {
  PreToolUse: [{ command: 'exit 2', timeoutSeconds: 10, matcher: 'Write|Edit', format: 'claude' }],
  Stop: [{ command: 'echo done', timeoutSeconds: 5 }],
};

describe('the finished snapshot', () => {
  it("carries the definition's hooks as they were declared", () => {
    const snapshot = resolveCapabilities(input({ hooks }));
    expect(snapshot.hooks).toEqual(hooks);
  });

  it('serializes its hooks last, after the diagnostics', () => {
    const snapshot = resolveCapabilities(input({ hooks }));
    expect(Object.keys(snapshot).slice(-2)).toEqual(['diagnostics', 'hooks']);
    expect(JSON.stringify(snapshot).endsWith(`"hooks":${JSON.stringify(hooks)}}`)).toBe(true);
  });

  it('records an empty hooks object for a definition without hooks', () => {
    expect(JSON.stringify(resolveCapabilities(input())).endsWith('"hooks":{}}')).toBe(true);
  });
});
