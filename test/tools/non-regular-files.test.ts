/**
 * The agent's file tools meet a FIFO, a socket and a device in the workspace: each is a tool
 * error the model can read, or is skipped, and none is opened in a way that blocks. Every FIFO
 * has no writer, so a blocking open would hang the call; `afterEach` opens each one read-write
 * (which never blocks) to release such an open, so a failure is a test timeout, not a stuck run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CapabilitySnapshot } from '../../src/shared/capability-snapshot.js';
import { createFileSystemTools } from '../../src/tools/file-system.js';
import { createKbSearchTool } from '../../src/tools/kb-search.js';
import { createMemoryTools } from '../../src/tools/memory.js';
import { createUseSkillTool } from '../../src/tools/skills.js';
import { ToolError, type ToolContext, type ToolImplementation } from '../../src/tools/tool.js';

const FIFO_REFUSAL = 'is a FIFO (named pipe), not a regular file';

let base: string;
let workspace: string;
let fifos: string[];
let server: net.Server;
let context: ToolContext;

const fileTools = new Map(createFileSystemTools().map((tool) => [tool.schema.name, tool]));

function mkfifo(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
  fifos.push(file);
  return file;
}

async function failure(tool: ToolImplementation, args: Record<string, unknown>): Promise<string> {
  const error: unknown = await tool.run(args, context).then(
    (result) => new Error(`expected a tool error, got: ${result}`),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as Error).message;
}

function fileTool(name: string): ToolImplementation {
  const tool = fileTools.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

beforeEach(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deputy-nonregular-')));
  workspace = path.join(base, 'ws');
  fs.mkdirSync(path.join(workspace, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'docs', 'guide.md'), 'the needle is here\n');
  fifos = [];
  mkfifo(path.join(workspace, 'pipe'));
  mkfifo(path.join(workspace, 'docs', 'piped.md'));
  server = net.createServer();
  await new Promise<void>((resolve) =>
    server.listen(path.join(workspace, 'docs', 'socket.md'), resolve),
  );
  context = {
    workspaceRoot: workspace,
    snapshot: {} as CapabilitySnapshot,
    signal: new AbortController().signal,
    heartbeat: () => {},
  };
});

afterEach(async () => {
  for (const fifo of fifos) {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(base, { recursive: true, force: true });
});

describe('file tools and files that are not regular', () => {
  it('read refuses a FIFO four times over, then still reads a file', async () => {
    // Four: one more than would leave a thread of Node's four-thread file pool free.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect(await failure(fileTool('read'), { path: 'pipe' })).toBe(
        `pipe ${FIFO_REFUSAL}; only regular files can be read`,
      );
    }
    expect(await fileTool('read').run({ path: 'docs/guide.md' }, context)).toContain('needle');
  });

  it('read refuses a socket', async () => {
    expect(await failure(fileTool('read'), { path: 'docs/socket.md' })).toBe(
      'docs/socket.md is a socket, not a regular file; only regular files can be read',
    );
  });

  it('edit and write refuse a FIFO and leave it a FIFO', async () => {
    expect(
      await failure(fileTool('edit'), { path: 'pipe', old_string: 'a', new_string: 'b' }),
    ).toBe(`pipe ${FIFO_REFUSAL}; only regular files can be read`);
    expect(await failure(fileTool('write'), { path: 'pipe', content: 'x' })).toBe(
      `pipe ${FIFO_REFUSAL}; only regular files can be written`,
    );
    expect(fs.statSync(path.join(workspace, 'pipe')).isFIFO()).toBe(true);
  });

  it('grep refuses a FIFO named outright, and skips the ones a walk meets', async () => {
    expect(await failure(fileTool('grep'), { pattern: 'needle', path: 'pipe' })).toBe(
      `pipe ${FIFO_REFUSAL}; only regular files can be searched`,
    );
    const found = await fileTool('grep').run({ pattern: 'needle' }, context);
    expect(found).toContain('docs/guide.md:1: the needle is here');
    const listed = await fileTool('glob').run({ pattern: '**/*' }, context);
    expect(listed).toContain('docs/guide.md');
    expect(listed).not.toContain('pipe');
    expect(listed).not.toContain('socket');
  });

  it('kb_search searches the regular files of a source and skips the rest', async () => {
    const tool = createKbSearchTool([{ name: 'docs', glob: 'docs/**/*.md' }], workspace);
    const result = await tool.run({ query: 'needle' }, context);
    expect(result).toContain('docs/guide.md:1');
  });

  it('memory_read and memory_write refuse a FIFO in the memory directory', async () => {
    const directory = path.join(base, 'memory');
    mkfifo(path.join(directory, 'notes.md'));
    const memory = new Map(
      createMemoryTools({ mode: 'private', directory }).map((tool) => [tool.schema.name, tool]),
    );
    expect(await failure(memory.get('memory_read')!, { name: 'notes' })).toBe(
      `memory file notes.md ${FIFO_REFUSAL}`,
    );
    expect(await failure(memory.get('memory_write')!, { name: 'notes', content: 'x' })).toBe(
      `memory file notes.md ${FIFO_REFUSAL}`,
    );
    expect(await memory.get('memory_search')!.run({ query: 'anything' }, context)).toContain(
      'No hits',
    );
  });

  it('use_skill refuses a skill file that is a FIFO', async () => {
    const location = mkfifo(path.join(base, 'skills', 'piped', 'SKILL.md'));
    const tool = createUseSkillTool([{ name: 'piped', description: 'piped', location }]);
    expect(await failure(tool, { name: 'piped' })).toBe(
      `skill 'piped' cannot be read from ${location}: ${location} ${FIFO_REFUSAL}`,
    );
  });
});
