/**
 * A caller's permission mode from the door to the snapshot: the start request
 * carries it, the facades refuse an unknown one, resolution records the capped policy, what the
 * caller asked and the agent's own, and the state says so in words.
 */
import { describe, expect, it } from 'vitest';
import { SUBAGENT_FRAMING } from '../../src/capabilities/prompt.js';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import type { LoadedDefinition } from '../../src/definitions/definition.js';
import { isDeputyError } from '../../src/errors.js';
import { createSecretMasker } from '../../src/secrets/masker.js';
import { describePermission, permissionInEffect } from '../../src/shared/permission-in-effect.js';
import type { PermissionMode } from '../../src/shared/policy-contract.js';
import { assertValidStart } from '../../src/temporal/delegations/start-delegation.js';
import { assertValidSessionStart } from '../../src/temporal/sessions/start.js';
import { delegationStart, sessionStart } from '../../src/temporal/start-requests.js';
import { input } from './helpers.js';

function snapshotOf(frontmatter: string, callerMode?: PermissionMode) {
  const { definition, diagnostics } = parseDefinition(
    `---\nname: helper\ndescription: d\n${frontmatter}\n---\nBody.\n`,
    { fileName: 'helper.md', level: 'ecosystem' },
  );
  const base = input();
  const loaded: LoadedDefinition = { ...base.loaded, definition, diagnostics };
  return resolveCapabilities({
    ...base,
    loaded,
    ...(callerMode === undefined ? {} : { callerMode }),
  });
}

describe("the caller's permission mode in the snapshot", () => {
  it('records the capped policy, what the caller stated and the agent’s own', () => {
    const snapshot = snapshotOf('permissionMode: acceptEdits', 'plan');
    expect(snapshot).toMatchObject({
      approvalMode: 'confirm',
      policyFlags: { readOnly: true },
      callerMode: 'plan',
      agentPolicy: { approvalMode: 'auto-edit' },
    });
    expect(snapshot.agentPolicy).not.toHaveProperty('policyFlags');
    // The model is told up front, as an agent file's own plan mode tells it.
    expect(snapshot.systemPrompt).toContain('# Permissions\n\nYou are in plan mode');
  });

  it('a wider caller changes nothing the agent decides; the record still says who asked', () => {
    const snapshot = snapshotOf('permissionMode: acceptEdits', 'bypassPermissions');
    expect(snapshot).toMatchObject({
      approvalMode: 'auto-edit',
      // Harmless below full-access, and kept: never wider than either side.
      policyFlags: { protectInFullAccess: true },
      callerMode: 'bypassPermissions',
      agentPolicy: { approvalMode: 'auto-edit' },
    });
    expect(snapshot.systemPrompt).toBe(`${SUBAGENT_FRAMING}Body.\n`);
  });

  it('caps a plain approvalMode too, keeping the agent’s flags', () => {
    expect(snapshotOf('approvalMode: full-access', 'acceptEdits')).toMatchObject({
      approvalMode: 'auto-edit',
      agentPolicy: { approvalMode: 'full-access' },
    });
    expect(snapshotOf('permissionMode: dontAsk', 'bypassPermissions')).toMatchObject({
      approvalMode: 'confirm',
      policyFlags: { noHuman: true, protectInFullAccess: true },
      agentPolicy: { approvalMode: 'confirm', policyFlags: { noHuman: true } },
    });
  });

  it('without a caller mode the snapshot has exactly the fields it had before', () => {
    const snapshot = snapshotOf('permissionMode: plan');
    expect(snapshot).not.toHaveProperty('callerMode');
    expect(snapshot).not.toHaveProperty('agentPolicy');
    expect(snapshot).toMatchObject({ approvalMode: 'confirm', policyFlags: { readOnly: true } });
  });
});

describe('permissionInEffect and describePermission', () => {
  it('say what ran and whether the caller capped it', () => {
    const capped = permissionInEffect(snapshotOf('permissionMode: acceptEdits', 'plan'));
    expect(capped).toEqual({
      approvalMode: 'confirm',
      policyFlags: { readOnly: true },
      callerMode: 'plan',
      agent: { approvalMode: 'auto-edit', policyFlags: {} },
      capped: true,
    });
    expect(describePermission(capped)).toBe(
      "approvalMode confirm, read-only (plan): capped by the caller's permission mode plan (the agent's own: approvalMode auto-edit)",
    );
    const within = permissionInEffect(snapshotOf('permissionMode: acceptEdits', 'acceptEdits'));
    expect(within.capped).toBe(false);
    expect(describePermission(within)).toBe(
      "approvalMode auto-edit: the agent's own, within the caller's permission mode acceptEdits",
    );
    // bypassPermissions adds protectInFullAccess, which changes nothing under auto-edit.
    const wider = permissionInEffect(
      snapshotOf('permissionMode: acceptEdits', 'bypassPermissions'),
    );
    expect(wider).toMatchObject({ policyFlags: { protectInFullAccess: true }, capped: false });
    expect(describePermission(wider)).toBe(
      "approvalMode auto-edit: the agent's own, within the caller's permission mode bypassPermissions",
    );
    const own = permissionInEffect(snapshotOf('permissionMode: bypassPermissions'));
    expect(own).toMatchObject({ callerMode: null, capped: false });
    expect(describePermission(own)).toBe('approvalMode full-access, protected writes still ask');
  });

  it('reads an older snapshot, with no caller mode recorded, as the agent’s own', () => {
    expect(permissionInEffect({ approvalMode: 'confirm' })).toEqual({
      approvalMode: 'confirm',
      policyFlags: {},
      callerMode: null,
      agent: { approvalMode: 'confirm', policyFlags: {} },
      capped: false,
    });
  });
});

describe('the doors carry it, the facades refuse an unknown one', () => {
  const caller = { id: null, roles: [] };
  const masker = createSecretMasker([]);

  it('delegationStart and sessionStart put it in the options only when stated', () => {
    const deps = { masker, agentRunsInBackground: () => false };
    const ask = { agent: 'helper', task: 'do it', caller };
    expect(delegationStart({ ...ask, callerMode: 'plan' }, deps).request.options).toEqual({
      callerMode: 'plan',
    });
    expect(delegationStart(ask, deps).request.options).toEqual({});
    expect(
      sessionStart({ caller, callerMode: 'dontAsk', unattended: true }, masker).options,
    ).toEqual({
      unattended: 'deny',
      callerMode: 'dontAsk',
    });
    expect(sessionStart({ caller }, masker).options).toEqual({});
  });

  it('an unknown mode is `invalid`, naming the modes', () => {
    const problem = (fn: () => void): string => {
      try {
        fn();
      } catch (error) {
        if (isDeputyError(error, 'invalid')) return error.message;
        throw error;
      }
      return 'no error';
    };
    const expected =
      "unknown permission mode 'yolo': callerMode is one of default, acceptEdits, dontAsk, bypassPermissions, plan (as Claude Code names them)";
    const options = { callerMode: 'yolo' as PermissionMode };
    expect(
      problem(() =>
        assertValidStart('d-1', { agent: 'a', task: 't', session: 'default', caller, options }),
      ),
    ).toBe(expected);
    expect(problem(() => assertValidSessionStart('s-1', 'main', { caller, options }))).toBe(
      expected,
    );
    expect(
      problem(() =>
        assertValidStart('d-1', {
          agent: 'a',
          task: 't',
          session: 'default',
          caller,
          options: { callerMode: 'plan' },
        }),
      ),
    ).toBe('no error');
  });
});
