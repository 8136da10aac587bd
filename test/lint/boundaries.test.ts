/**
 * The import boundaries of eslint.boundaries.js, held against probe files that break them (and
 * files that keep them), so a rule that silently stops matching fails here, not in a review.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaryConfigs } from '../../eslint.boundaries.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { '@typescript-eslint': tseslint.plugin },
    },
    ...boundaryConfigs(),
  ],
});

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

const refused: Array<[string, string]> = [
  ['src/workflows/probe.ts', "import fs from 'node:fs';"],
  ['src/workflows/probe.ts', "import { Client } from '@temporalio/client';"],
  ['src/workflows/probe.ts', "import { resolveInWorkspace } from '../tools/workspace-path.js';"],
  ['src/workflows/probe.ts', "import { canonicalCallPaths } from '../tools/call-paths.js';"],
  ['src/workflows/probe.ts', "import { createActivities } from '../activities/index.js';"],
  ['src/workflows/probe.ts', "import { loadConfig } from '../config.js';"],
  ['src/workflows/probe.ts', "import { parse } from 'yaml';"],
  ['src/workflows/session/probe.ts', "import { loadConfig } from '../../config/load.js';"],
  [
    'src/workflows/session/probe.ts',
    "import { createActivities } from '../../activities/index.js';",
  ],
  ['src/shared/probe.ts', "import { DeputyError } from '../errors.js';"],
  ['src/shared/probe.ts', "import path from 'node:path';"],
  ['src/policy/probe.ts', "import { realpathLenient } from '../tools/workspace-path.js';"],
  ['src/policy/probe.ts', "import path from 'node:path';"],
  ['src/paths/probe.ts', "import { ToolError } from '../tools/tool.js';"],
  ['src/paths/probe.ts', "import fg from 'fast-glob';"],
  ['src/tools/probe.ts', "import { TOOL_PROVIDERS } from '../capabilities/providers.js';"],
  ['src/tools/probe.ts', "import type { ResolveInput } from '../capabilities/resolve.js';"],
  ['src/capabilities/probe.ts', "import { ToolError } from '../tools/tool.js';"],
  ['src/cli/probe.ts', "import { createActivities } from '../activities/index.js';"],
  ['src/api/probe.ts', "import type { ActivityDeps } from '../activities/types.js';"],
  ['src/api/probe.ts', "import { delegation } from '../workflows/delegation.js';"],
  ['src/servers/cluster/probe.ts', "import { createActivities } from '../../activities/index.js';"],
  ['src/servers/probe.ts', "import { registerClusterCommands } from '../cli/cluster-commands.js';"],
  ['src/servers/dev/probe.ts', "import { connectTemporal } from '../../temporal/connection.js';"],
  ['src/shared/tools/probe.ts', "import { DeputyError } from '../../errors.js';"],
  ['src/cli/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/cli/probe.ts', "import { decideCard } from '../temporal/delegations/cards/decision.js';"],
  ['src/cli/delegations/probe.ts', "import { cardRoutes } from '../../api/cards/routes.js';"],
  ['src/api/http/probe.ts', "import { createActivities } from '../../activities/index.js';"],
  [
    'src/api/cards/probe.ts',
    "import { createDelegationLookup } from '../../temporal/delegations/lookup.js';",
  ],
  ['src/activities/probe.ts', "import { facadesFor } from '../temporal/facades.js';"],
  ['src/activities/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/models/probe.ts', "import type { LoadedDefinition } from '../definitions/definition.js';"],
  ['src/definitions/probe.ts', "import { resolveCapabilities } from '../capabilities/resolve.js';"],
  [
    'src/definitions/read/probe.ts',
    "import { createMcpRuntime } from '../../mcp-client/mcp-runtime.js';",
  ],
  ['src/mcp-client/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/secrets/probe.ts', "import { createMcpRuntime } from '../mcp-client/mcp-runtime.js';"],
  ['src/config/probe.ts', "import { secretMaskerFor } from '../secrets/masker.js';"],
  ['src/config/probe.ts', "import { NameSchema } from '../definitions/schema.js';"],
  ['src/client/probe.ts', "import type { AgentDetail } from '../api/agents/schemas.js';"],
  ['src/client/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/client/probe.ts', "import { loadConfig } from '../config/load.js';"],
  ['src/client/probe.ts', "import { createRegistry } from '../definitions/registry/registry.js';"],
  ['src/client/probe.ts', "import { Client } from '@temporalio/client';"],
  ['src/client/probe.ts', "import { Hono } from 'hono';"],
  ['src/client/local/probe.ts', "import type { AgentDetail } from '../../api/agents/schemas.js';"],
  [
    'web/src/api/probe.ts',
    "import type { AgentDetail } from '../../../src/api/agents/schemas.js';",
  ],
  ['web/src/probe.ts', "import { loadConfig } from '../../src/config/load.js';"],
  ['web/src/api/probe.ts', "import { redact } from '../../../src/shared/redact.js';"],
  ['web/src/probe.ts', "import fs from 'node:fs';"],
  ['src/mcp-door/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/mcp-door/probe.ts', "import { configFor } from '../cli/context.js';"],
  [
    'src/mcp-door/probe.ts',
    "import { decideCard } from '../temporal/delegations/cards/decision.js';",
  ],
  ['src/rights/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/rights/probe.ts', "import { createActivities } from '../activities/index.js';"],
  ['src/temporal/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/temporal/delegations/probe.ts', "import { program } from '../../cli/program.js';"],
  ['src/temporal/probe.ts', "import { createActivities } from '../activities/index.js';"],
  ['src/temporal/calls/probe.ts', "import { delegation } from '../../workflows/delegation.js';"],
  ['src/temporal/probe.ts', "import { startWorkerRuntime } from '../worker/worker.js';"],
  ['src/metrics/probe.ts', "import { facadesFor } from '../temporal/facades.js';"],
  ['src/metrics/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/processes/probe.ts', "import { DeputyError } from '../errors.js';"],
  ['src/sandbox/probe.ts', "import { buildToolbox } from '../tools/toolbox.js';"],
  ['src/sandbox/probe.ts', "import { spawnWatchedGroup } from '../processes/watched-group.js';"],
  ['src/worker/probe.ts', "import { program } from '../cli/program.js';"],
  ['src/worker/probe.ts', "import { createMcpDoor } from '../mcp-door/server.js';"],
  ['src/worker/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/asks/probe.ts', "import { createApp } from '../api/app.js';"],
  ['src/asks/probe.ts', "import { callControlTool } from '../mcp-door/control-tools.js';"],
  ['src/asks/probe.ts', "import { decideCard } from '../temporal/delegations/cards/decision.js';"],
];

const allowed: Array<[string, string]> = [
  ['src/workflows/probe.ts', "import { proxyActivities } from '@temporalio/workflow';"],
  ['src/workflows/probe.ts', "import { decide } from '../policy/decide.js';"],
  ['src/workflows/probe.ts', "import type { createActivities } from '../activities/index.js';"],
  ['src/workflows/probe.ts', "import { CardBook } from './cards/card-book.js';"],
  ['src/workflows/cards/probe.ts', "import { rounds } from '../rounds.js';"],
  ['src/workflows/session/probe.ts', "import { DelegationRun } from '../delegation-run.js';"],
  [
    'src/workflows/session/probe.ts',
    "import type { ResolvedAgent } from '../../shared/workflow-contract/activities.js';",
  ],
  ['src/workflows/session/probe.ts', "import { decide } from '../../policy/decide.js';"],
  ['src/shared/probe.ts', "import { defineSignal } from '@temporalio/workflow';"],
  ['src/policy/probe.ts', "import type { Verdict } from '../shared/policy-contract.js';"],
  ['src/paths/probe.ts', "import { isInside } from '../shared/path-containment.js';"],
  ['src/paths/probe.ts', "import fs from 'node:fs';"],
  [
    'src/tools/probe.ts',
    "import { READ_TOOL_SCHEMA } from '../shared/tools/workspace-tool-schemas.js';",
  ],
  ['src/capabilities/probe.ts', "import type { DeputyConfig } from '../config/schema.js';"],
  ['src/cli/probe.ts', "import { startWorkerRuntime } from '../worker/worker.js';"],
  ['src/temporal/probe.ts', "import { serverInfoPath } from '../servers/dev/server-record.js';"],
  [
    'src/temporal/delegations/probe.ts',
    "import { deputyMetrics } from '../../metrics/deputy-metrics.js';",
  ],
  ['src/temporal/calls/probe.ts', "import { DeputyError } from '../../errors.js';"],
  ['src/metrics/probe.ts', "import type { McpServerStatus } from '../mcp-client/pool.js';"],
  ['src/worker/probe.ts', "import { createActivities } from '../activities/index.js';"],
  [
    'src/worker/probe.ts',
    "import { startWorkerMetricsEndpoint } from '../api/metrics/worker-endpoint.js';",
  ],
  [
    'src/api/schedules/probe.ts',
    "import { scheduleCreation } from '../../temporal/schedules/create-request.js';",
  ],
  ['src/servers/cluster/probe.ts', "import { freePort } from '../dev/dev-server.js';"],
  ['src/cli/probe.ts', "import { facadesFor } from '../temporal/facades.js';"],
  [
    'src/api/cards/probe.ts',
    "import type { Delegations } from '../../temporal/delegations/facade.js';",
  ],
  ['src/api/cards/probe.ts', "import { clip } from '../../shared/clip.js';"],
  ['src/definitions/read/probe.ts', "import { NAME_PATTERN } from '../names.js';"],
  ['src/shared/tools/probe.ts', "import type { ApprovalCard } from '../delegation.js';"],
  ['src/config/probe.ts', "import { isInside } from '../shared/path-containment.js';"],
  ['src/client/probe.ts', "import type { AgentDetail } from '../api/contract.js';"],
  ['src/client/probe.ts', "import type { DelegationState } from '../shared/delegation.js';"],
  ['src/client/probe.ts', "import type { Client } from '@temporalio/client';"],
  ['src/client/probe.ts', "export type { SessionState } from '../shared/session.js';"],
  ['src/client/probe.ts', "import { httpTransport } from './http-transport.js';"],
  ['src/client/local/probe.ts', "import { createApp } from '../../api/app.js';"],
  ['src/client/local/probe.ts', "import { createDeputyClient } from '../deputy-client.js';"],
  ['src/client/local/probe.ts', "import { Client } from '@temporalio/client';"],
  ['web/src/api/probe.ts', "import type { AgentDetail } from '../../../src/api/contract.js';"],
  [
    'web/src/api/probe.ts',
    "import type { ApprovalCard } from '../../../src/shared/delegation.js';",
  ],
  ['web/src/probe.ts', "import { api } from './api/client';"],
  ['src/mcp-door/probe.ts', "import { assertMayStop } from '../rights/rights.js';"],
  ['src/api/cards/probe.ts', "import { cardVisibility } from '../../rights/card-visibility.js';"],
  ['src/cli/probe.ts', "import { createMcpDoor } from '../mcp-door/door.js';"],
  ['src/mcp-door/probe.ts', "import { decideAs } from '../asks/decide-as.js';"],
  ['src/cli/probe.ts', "import { decideAs } from '../asks/decide-as.js';"],
  ['src/asks/probe.ts', "import { assertMayDecide } from '../rights/rights.js';"],
];

describe('import boundaries (npm run lint)', () => {
  it.each(refused)('%s may not: %s', async (file, code) => {
    const messages = await violations(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^@typescript-eslint\/no-restricted-imports: /);
  });

  it.each(allowed)('%s may: %s', async (file, code) => {
    expect(await violations(file, code)).toEqual([]);
  });
});
