/**
 * Every Claude Code agent of test/fixtures/corpus, loaded at the ecosystem level and resolved for
 * an anonymous caller, summarized file by file (model, tools, policy, diagnostics) and compared
 * with a reviewed snapshot: a change in how deputy reads or resolves these files shows as a diff
 * of test/fixtures/corpus/resolved.snapshot.json, to be reviewed and committed
 * (`npx vitest run test/definitions/corpus-snapshot.test.ts -u`).
 *
 * The configuration is fixed: an Anthropic key is set (so sonnet, opus and haiku take the
 * built-in defaults), no alias is mapped, and no skill or MCP server is configured.
 */
import { cp } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import type { DefinitionRegistry } from '../../src/definitions/registry/registry.js';
import type { Diagnostic } from '../../src/shared/diagnostics.js';
import { ANONYMOUS } from '../capabilities/helpers.js';
import { loadedRegistry, tempLayout, type TempLayout } from './support.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const corpus = resolve(repoRoot, 'test/fixtures/corpus/claude-agents-voltagent/categories');
const snapshotFile = resolve(repoRoot, 'test/fixtures/corpus/resolved.snapshot.json');

let layout: TempLayout;
let registry: DefinitionRegistry;

beforeAll(async () => {
  layout = await tempLayout();
  await cp(corpus, layout.dirs.claude, { recursive: true });
  registry = await loadedRegistry(layout, { env: { ANTHROPIC_API_KEY: 'sk-test' } });
});

afterAll(async () => {
  await registry.close();
  await layout.cleanup();
});

/** `severity code path`: the message is left out so rewording one does not churn 158 entries. */
function compact(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.severity} ${d.code}${d.path === '' ? '' : ` ${d.path}`}`);
}

describe('ecosystem corpus resolved (snapshot)', () => {
  it('matches the reviewed snapshot', async () => {
    const summary: Record<string, unknown> = {};
    const entries = [...registry.listAll()].sort((a, b) => a.filePath.localeCompare(b.filePath));
    for (const entry of entries) {
      const snapshot = resolveCapabilities({
        loaded: entry,
        config: {
          workspace: layout.config.workspace,
          dataDir: layout.config.dataDir,
          mcpServers: {},
          mcpToolTimeoutSeconds: 60,
        },
        caller: ANONYMOUS,
        skillIndex: new Map(),
        resolvedModel: entry.definition.model,
      });
      summary[relative(layout.dirs.claude, entry.filePath)] = {
        name: snapshot.agentName,
        model: entry.definition.model,
        tools: snapshot.tools.map((tool) => tool.name),
        ...(snapshot.toolPatterns === undefined ? {} : { toolPatterns: snapshot.toolPatterns }),
        approvalMode: snapshot.approvalMode,
        ...(snapshot.policyFlags === undefined ? {} : { policyFlags: snapshot.policyFlags }),
        memory: snapshot.memory?.mode ?? 'none',
        definitionDiagnostics: compact(entry.diagnostics),
        // The snapshot repeats the file's own diagnostics; these are the ones resolving adds.
        resolveDiagnostics: compact(snapshot.diagnostics).filter(
          (line) => !compact(entry.diagnostics).includes(line),
        ),
      };
    }
    expect(Object.keys(summary).length).toBeGreaterThanOrEqual(150);
    await expect(`${JSON.stringify(summary, null, 2)}\n`).toMatchFileSnapshot(snapshotFile);
  });
});
