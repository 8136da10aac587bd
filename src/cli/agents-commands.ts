/** `deputy agents list|show`: definitions as the registry loaded them, with their diagnostics. */
import type { Command } from 'commander';
import type { LoadedDefinition } from '../definitions/definition.js';
import { DeputyError } from '../errors.js';
import { ANONYMOUS_CALLER } from '../shared/caller.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { REDACTED } from '../shared/redact.js';
import { configFor, printConfigWarnings } from './context.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { Run } from './exit-codes.js';
import { printJson } from './io.js';

/** MCP env values and headers are secrets: never printed, as over HTTP. */
function redacted(loaded: LoadedDefinition): LoadedDefinition {
  const mcpServers = loaded.definition.mcpServers.map((server) =>
    typeof server === 'string'
      ? server
      : {
          ...server,
          ...(server.env ? { env: mask(server.env) } : {}),
          ...(server.headers ? { headers: mask(server.headers) } : {}),
        },
  );
  return { ...loaded, definition: { ...loaded.definition, mcpServers } };
}

function mask(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(record).map((key) => [key, REDACTED]));
}

function diagnosticLines(loaded: LoadedDefinition): string[] {
  return loaded.diagnostics.map(
    (d) => `  ${d.severity}: ${d.path || '(file)'}: ${d.message} [${d.code}]`,
  );
}

export async function loadRegistry(command: Command) {
  // Loaded on demand: client commands should not pay for the definition parser.
  const { createRegistry } = await import('../definitions/registry/registry.js');
  const registry = createRegistry({ config: await configFor(command) });
  await registry.load();
  return registry;
}

export function registerAgentCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  const agents = program.command('agents').description('agent definitions');

  agents
    .command('list')
    .description('every agent with its level and diagnostics')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const registry = await loadRegistry(command);
        // On stderr, so `--json` output stays one document.
        printConfigWarnings(await configFor(command), io);
        const all = registry.list().map(redacted);
        if (options.json) {
          printJson(
            io,
            all.map(({ definition, level, readOnly, filePath, diagnostics }) => ({
              name: definition.name,
              description: definition.description,
              model: definition.model,
              level,
              readOnly,
              filePath,
              diagnostics,
            })),
          );
          return EXIT.ok;
        }
        if (all.length === 0) io.out('no agents');
        for (const loaded of all) {
          const { definition } = loaded;
          const flags = `${loaded.level}${loaded.readOnly ? ', read-only' : ''}`;
          io.out(`${definition.name} (${flags}): ${definition.description}`);
          for (const line of diagnosticLines(loaded)) io.out(line);
        }
        return EXIT.ok;
      }),
    );

  agents
    .command('show')
    .description("one agent's definition and diagnostics")
    .argument('<name>', 'agent name')
    .option('--json', 'machine-readable output')
    .option(
      '--roles <roles>',
      'resolve for a caller with these comma-separated roles (default: no identity, unfiltered)',
    )
    .option('--main', "resolve as a session's main agent (with Task), not as a delegate")
    .action(
      async (
        name: string,
        options: { json?: boolean; roles?: string; main?: boolean },
        command: Command,
      ) =>
        run(command, async (io): Promise<ExitCode> => {
          const registry = await loadRegistry(command);
          const found = registry.get(name);
          if (!found) {
            const known = registry.list().map((loaded) => loaded.definition.name);
            throw new DeputyError(
              'not-found',
              `no agent named '${name}' (known: ${known.join(', ') || 'none'})`,
            );
          }
          const loaded = redacted(found);
          const resolution = await resolveFor(command, registry, name, options);
          if (options.json) {
            printJson(io, { ...loaded, resolution });
            return EXIT.ok;
          }
          const { definition } = loaded;
          const { systemPrompt, unknownKeys, ...fields } = definition;
          io.out(`${definition.name} (${loaded.level}${loaded.readOnly ? ', read-only' : ''})`);
          io.out(`file: ${loaded.filePath}`);
          for (const [key, value] of Object.entries(fields)) {
            if (key === 'name') continue;
            io.out(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
          }
          if (Object.keys(unknownKeys).length > 0)
            io.out(`unknown keys (kept): ${JSON.stringify(unknownKeys)}`);
          io.out(loaded.diagnostics.length > 0 ? 'diagnostics:' : 'diagnostics: none');
          for (const line of diagnosticLines(loaded)) io.out(line);
          io.out(`resolves to (caller: ${resolution.caller}; as ${resolution.as}):`);
          io.out(`  tools: ${resolution.tools.join(', ') || 'none'}`);
          for (const diagnostic of resolution.diagnostics) {
            io.out(
              `  ${diagnostic.severity}: ${diagnostic.path || '(file)'}: ${diagnostic.message} [${diagnostic.code}]`,
            );
          }
          io.out('--- system prompt ---');
          io.out(systemPrompt);
          return EXIT.ok;
        }),
    );
}

/**
 * What a delegation (or, with --main, a session) of this agent would get right now: the same resolution `resolveAgent`
 * runs, so every declared name that does not resolve shows up with its reason.
 */
async function resolveFor(
  command: Command,
  registry: Awaited<ReturnType<typeof loadRegistry>>,
  name: string,
  { roles, main }: { roles?: string | undefined; main?: boolean | undefined },
) {
  const { createAgentResolver } = await import('../worker/agent-resolver.js');
  const caller =
    roles === undefined
      ? ANONYMOUS_CALLER
      : {
          id: 'cli',
          roles: roles
            .split(',')
            .map((role) => role.trim())
            .filter(Boolean),
        };
  const resolved = await createAgentResolver(await configFor(command), registry).resolve(
    name,
    caller,
    main === true ? { asSession: true } : {},
  );
  const snapshot = resolved?.snapshot;
  return {
    as: main === true ? "a session's main agent" : 'a delegate (--main: as a main agent)',
    caller:
      caller.id === null ? 'no identity (auth disabled)' : `roles [${caller.roles.join(', ')}]`,
    tools: snapshot?.tools.map((tool) => tool.name) ?? [],
    diagnostics: (snapshot?.diagnostics ?? []).filter(
      (diagnostic) => !found(diagnostic, registry.get(name)?.diagnostics ?? []),
    ),
  };
}

/** Resolution repeats the definition's own diagnostics; show each once. */
function found(diagnostic: Diagnostic, among: Diagnostic[]): boolean {
  return among.some(
    (other) =>
      other.code === diagnostic.code &&
      other.path === diagnostic.path &&
      other.message === diagnostic.message,
  );
}
