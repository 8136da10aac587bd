/**
 * The `deputy` command tree. Each command body returns an exit code; every error is mapped to a
 * code and a one-line message in one place (exit-codes.ts), so scripts can rely on them.
 */
import { Command, CommanderError } from 'commander';
import { registerAgentCommands } from './agents-commands.js';
import { registerDelegationCommands } from './delegations/delegation-commands.js';
import { describeFailure, EXIT, type Run } from './exit-codes.js';
import { processIo, type Io } from './io.js';
import { registerClusterCommands } from './servers/cluster-commands.js';
import { registerInitCommand } from './init-command.js';
import { registerMcpCommands } from './mcp/mcp-commands.js';
import { registerServerCommands } from './servers/server-commands.js';
import { registerSessionCommands } from './sessions/session-commands.js';
import { registerSteeringCommands } from './delegations/steering-commands.js';
import { registerGrantCommands } from './delegations/grant-commands.js';
import { registerScheduleCommands } from './schedules/schedule-commands.js';
import { VERSION } from '../version.js';

export function createProgram(io: Io, setExitCode: (code: number) => void): Command {
  // Settings made before .command() are inherited by every subcommand.
  const program = new Command('deputy')
    .description('Durable declared-capability subagents on Temporal')
    .version(VERSION)
    .option(
      '--workspace <dir>',
      'workspace directory (env DEPUTY_WORKSPACE; default: the current directory)',
    )
    .option(
      '--data-dir <dir>',
      'data directory (env DEPUTY_DATA_DIR; default: <workspace>/.deputy)',
    )
    .showHelpAfterError()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) })
    .exitOverride();

  const run = async (_command: Command, body: Run): Promise<void> => {
    setExitCode(await body(io));
  };
  registerDelegationCommands(program, run);
  registerSteeringCommands(program, run);
  registerGrantCommands(program, run);
  registerServerCommands(program, run);
  registerAgentCommands(program, run);
  registerMcpCommands(program, run);
  registerSessionCommands(program, run);
  registerScheduleCommands(program, run);
  registerClusterCommands(program, run);
  registerInitCommand(program, run);
  return program;
}

/** Parses and runs; resolves to the exit code instead of exiting (tests call this). */
export async function runCli(argv: string[], io: Io = processIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = createProgram(io, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Asked-for help and the version are not failures; anything else commander refuses is usage.
      const asked = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
      return asked ? EXIT.ok : EXIT.usage;
    }
    const failure = describeFailure(error);
    io.err(`deputy: ${failure.message}`);
    return failure.code;
  }
}
