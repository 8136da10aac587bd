/**
 * `deputy init`: a starter `.subagents/` for a project of one's own: one agent that
 * runs on the scripted model (so it works before any key is set) and a configuration whose model
 * catalog is written out, commented, for the providers deputy speaks. Nothing that exists is
 * overwritten: each file is created only if it is absent, and the command says which it kept.
 * Nothing is written through a symbolic link that leads out of the workspace (a `.subagents`
 * linked to another folder): the command refuses, naming the link, and writes nothing.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { EXIT } from './exit-codes.js';
import type { Run } from './exit-codes.js';
import { printJson } from './io.js';
import { linkOutOf, type LinkOut } from '../paths/link-out.js';

const AGENT = `---
name: helper
description: A starter agent for this project. Reads files and proposes changes; every write asks you first.
# Runs on the scripted model until you pick a real one from models.catalog in config.yaml
# (e.g. model: local/qwen), so it works before any key is set.
model: scripted:.subagents/scripts/helper.yaml
tools: [read, glob, grep, write, edit]
approvalMode: confirm
maxTurns: 20
---
You are this project's helper. Read what you need before you change anything, keep changes
small, and end with a short summary of what you did and what is left.
`;

const SCRIPT = `# The scripted model's answers for the starter agent: it says it is a script.
turns:
  - text: '[scripted model] I am the starter agent on a script. Choose a real model in .subagents/config.yaml (models.catalog) and set it as this agent''s model.'
`;

const CONFIG = `# deputy's configuration for this workspace (docs/operations.md in the package).
# Nothing here holds a secret: keys are read from the environment variables you name.

models:
  # The handle a definition's \`model: default\` uses.
  default: scripted:.subagents/scripts/helper.yaml
  catalog: {}
  # Uncomment and adapt; then \`model: <name>\` in a definition picks it.
  # catalog:
  #   claude:
  #     provider: anthropic
  #     model: claude-sonnet-4-5
  #     apiKeyEnv: ANTHROPIC_API_KEY
  #   gpt:
  #     provider: openai
  #     model: gpt-4o-mini
  #     apiKeyEnv: OPENAI_API_KEY
  #   local:
  #     provider: openai            # any OpenAI-compatible server: Ollama, llama.cpp, vLLM
  #     model: qwen2.5-coder
  #     baseUrl: http://127.0.0.1:11434/v1

# Writes outside these folders ask even under approvalMode auto-in-workspace.
# writableRoots: [src, docs]
`;

/** The starter files, relative to the workspace. */
export const STARTER_FILES: ReadonlyArray<[string, string]> = [
  ['.subagents/agents/helper.md', AGENT],
  ['.subagents/scripts/helper.yaml', SCRIPT],
  ['.subagents/config.yaml', CONFIG],
];

/** Why nothing was written: which link leads where, and what to do instead. */
function linkOutMessage(workspace: string, out: LinkOut): string {
  return `deputy: ${out.link} in ${workspace} is a symbolic link to ${out.target}, outside the workspace: deputy init writes nothing through it (nothing was written; remove the link, or run deputy init in the folder it leads to)`;
}

export function registerInitCommand(
  program: Command,
  run: (c: Command, body: Run) => Promise<void>,
): void {
  program
    .command('init')
    .description(
      'write a starter .subagents/ (one agent, a config with a commented model catalog); never overwrites',
    )
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) =>
      run(command, async (io) => {
        const globals = command.optsWithGlobals<{ workspace?: string }>();
        const workspace = globals.workspace ?? process.env.DEPUTY_WORKSPACE ?? process.cwd();
        if (!existsSync(workspace)) {
          io.err(`deputy: workspace ${workspace} does not exist`);
          return EXIT.usage;
        }
        // Every file is checked before any is written, so a refusal leaves nothing half done.
        for (const [file] of STARTER_FILES) {
          const out = linkOutOf(workspace, file);
          if (out !== null) {
            io.err(linkOutMessage(workspace, out));
            return EXIT.usage;
          }
        }
        const created: string[] = [];
        const kept: string[] = [];
        for (const [file, content] of STARTER_FILES) {
          const path = join(workspace, file);
          // Again right before writing, in case a link appeared since: the window left is this
          // check's to the open's (mkdir and open follow links, and Node offers no openat).
          const out = linkOutOf(workspace, file);
          if (out !== null) {
            io.err(linkOutMessage(workspace, out));
            return EXIT.usage;
          }
          mkdirSync(join(path, '..'), { recursive: true });
          try {
            // 'wx': created only if absent, decided by the kernel, not by a check before writing.
            writeFileSync(path, content, { flag: 'wx' });
            created.push(file);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
            kept.push(file);
          }
        }
        if (options.json === true) {
          printJson(io, { workspace, created, kept });
          return EXIT.ok;
        }
        for (const file of created) io.out(`created ${file}`);
        for (const file of kept) io.out(`kept    ${file} (it exists; not overwritten)`);
        io.out(
          `next: deputy dev   (then, from another terminal: deputy delegate helper "Look around" in ${relative(process.cwd(), workspace) || '.'})`,
        );
        return EXIT.ok;
      }),
    );
}
