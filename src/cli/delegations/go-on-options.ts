/** What `fork` and `resume` both take: the definition and the model the new delegation goes on with. */
import type { Command } from 'commander';

export interface GoOnOptions {
  agent?: string;
  model?: string;
  json?: boolean;
}

/** `--agent`, `--model` and `--json`, after the command's own options. */
export function addGoOnOptions(command: Command): Command {
  return command
    .option('--agent <agent>', "go on under this definition (default: the original's)")
    .option('--model <model>', "go on with this model (default: the definition's)")
    .option('--json', 'machine-readable output');
}
