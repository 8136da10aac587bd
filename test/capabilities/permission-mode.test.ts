/**
 * Claude Code's permissionMode from file to snapshot: the reader says what it maps
 * to, or that approvalMode wins; resolution records the mode and flags decide() honours.
 */
import { describe, expect, it } from 'vitest';
import { SUBAGENT_FRAMING } from '../../src/capabilities/prompt.js';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import type { LoadedDefinition } from '../../src/definitions/definition.js';
import { PERMISSION_MODES } from '../../src/definitions/schema.js';
import { input } from './helpers.js';

function parse(frontmatter: string) {
  return parseDefinition(`---\nname: helper\ndescription: d\n${frontmatter}\n---\nBody.\n`, {
    fileName: 'helper.md',
    level: 'ecosystem',
  });
}

function snapshotOf(frontmatter: string) {
  const { definition, diagnostics } = parse(frontmatter);
  const base = input();
  const loaded: LoadedDefinition = { ...base.loaded, definition, diagnostics };
  return resolveCapabilities({ ...base, loaded });
}

describe('permissionMode diagnostics', () => {
  it('says what each mode maps to, as info, and no longer warns that it is not mapped', () => {
    const expected = {
      default: "permissionMode 'default' maps to approvalMode confirm: ",
      acceptEdits: "permissionMode 'acceptEdits' maps to approvalMode auto-edit: ",
      dontAsk: "permissionMode 'dontAsk' maps to approvalMode confirm: ",
      bypassPermissions: "permissionMode 'bypassPermissions' maps to approvalMode full-access: ",
      plan: "permissionMode 'plan' maps to approvalMode confirm: read-only",
    };
    for (const mode of PERMISSION_MODES) {
      const { definition, diagnostics } = parse(`permissionMode: ${mode}`);
      expect(definition.permissionMode).toBe(mode);
      expect(definition.permissionModeApplies).toBe(true);
      expect(diagnostics.map((d) => `${d.severity}:${d.code}:${d.path}`)).toEqual([
        'info:permission-mode.mapped:permissionMode',
      ]);
      expect(diagnostics[0]?.message.startsWith(expected[mode])).toBe(true);
    }
  });

  it('says approvalMode wins when both are set, in either order', () => {
    for (const frontmatter of [
      'permissionMode: plan\napprovalMode: auto-edit',
      'approvalMode: auto-edit\npermissionMode: plan',
    ]) {
      const { definition, diagnostics } = parse(frontmatter);
      expect(definition.approvalMode).toBe('auto-edit');
      expect(definition.permissionModeApplies).toBeUndefined();
      expect(diagnostics).toEqual([
        {
          severity: 'warning',
          path: 'permissionMode',
          code: 'permission-mode.overridden',
          message:
            "permissionMode 'plan' and approvalMode 'auto-edit' are both set: approvalMode wins, so permissionMode changes nothing (alone it would map to approvalMode confirm: read-only: writes and bash are denied with a message saying the agent is in plan mode; reads run as under confirm)",
        },
      ]);
    }
  });

  it('an invalid approvalMode does not win: permissionMode applies', () => {
    const { definition, diagnostics } = parse('approvalMode: yolo\npermissionMode: acceptEdits');
    expect(definition.permissionModeApplies).toBe(true);
    expect(diagnostics.map((d) => d.code)).toEqual(['field.invalid', 'permission-mode.mapped']);
  });
});

describe('permissionMode in the snapshot', () => {
  it('records the mapped approval mode and the flags decide() honours', () => {
    expect(snapshotOf('permissionMode: default')).toMatchObject({ approvalMode: 'confirm' });
    expect(snapshotOf('permissionMode: default').policyFlags).toBeUndefined();
    expect(snapshotOf('permissionMode: acceptEdits').approvalMode).toBe('auto-edit');
    expect(snapshotOf('permissionMode: acceptEdits').policyFlags).toBeUndefined();
    expect(snapshotOf('permissionMode: dontAsk')).toMatchObject({
      approvalMode: 'confirm',
      policyFlags: { noHuman: true },
    });
    expect(snapshotOf('permissionMode: bypassPermissions')).toMatchObject({
      approvalMode: 'full-access',
      policyFlags: { protectInFullAccess: true },
    });
    expect(snapshotOf('permissionMode: plan')).toMatchObject({
      approvalMode: 'confirm',
      policyFlags: { readOnly: true },
    });
  });

  it('keeps approvalMode and adds no flags when the file sets both, or no permissionMode', () => {
    const both = snapshotOf('permissionMode: plan\napprovalMode: auto-edit');
    expect(both.approvalMode).toBe('auto-edit');
    expect(both.policyFlags).toBeUndefined();
    expect(both.diagnostics.map((d) => d.code)).toContain('permission-mode.overridden');
    const neither = snapshotOf('approvalMode: auto-in-workspace');
    expect(neither.approvalMode).toBe('auto-in-workspace');
    expect(neither).not.toHaveProperty('policyFlags');
  });

  it('plan and dontAsk say so in the prompt; the other modes, and approvalMode winning, add nothing', () => {
    expect(snapshotOf('permissionMode: plan').systemPrompt).toContain(
      '# Permissions\n\nYou are in plan mode: you are read-only,',
    );
    expect(snapshotOf('permissionMode: dontAsk').systemPrompt).toContain(
      '# Permissions\n\nNo one answers approval requests for you:',
    );
    for (const frontmatter of [
      'permissionMode: default',
      'permissionMode: acceptEdits',
      'permissionMode: bypassPermissions',
      'permissionMode: plan\napprovalMode: auto-edit',
    ]) {
      expect(snapshotOf(frontmatter).systemPrompt, frontmatter).toBe(`${SUBAGENT_FRAMING}Body.\n`);
    }
  });

  it('bypassPermissions still gives only the tools the caller may have', () => {
    const { definition, diagnostics } = parse(
      'permissionMode: bypassPermissions\ntools: [read, write, bash]',
    );
    const base = input();
    const snapshot = resolveCapabilities({
      ...base,
      loaded: { ...base.loaded, definition, diagnostics },
      caller: { id: 'bob', roles: ['user'] },
    });
    expect(snapshot.approvalMode).toBe('full-access');
    expect(snapshot.tools.map((t) => t.name)).toEqual(['read']);
  });
});
