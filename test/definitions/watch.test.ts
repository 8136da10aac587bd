/** Hand edits are picked up by the watcher, without a restart. Real files, real watcher. */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadedDefinition } from '../../src/definitions/definition.js';
import { agentFile, eventually, useTempRegistries } from './support.js';

const temp = useTempRegistries();

describe('registry watcher', () => {
  it('picks up an added, an edited and a deleted file', async () => {
    await mkdir(temp.layout.dirs.project, { recursive: true });
    const registry = await temp.load({ watchDebounceMs: 30 });
    const seen: LoadedDefinition[][] = [];
    await registry.watch((definitions) => seen.push(definitions));
    const path = join(temp.layout.dirs.project, 'live.md');

    await writeFile(path, agentFile('live'));
    await eventually(() => expect(registry.get('live')?.definition.description).toBe('live agent'));
    expect(seen.length).toBeGreaterThan(0);

    await writeFile(path, agentFile('live').replace('live agent', 'edited by hand'));
    await eventually(() =>
      expect(registry.get('live')?.definition.description).toBe('edited by hand'),
    );

    await rm(path);
    await eventually(() => expect(registry.get('live')).toBeUndefined());
  });

  it('notices level directories created after it started, ecosystem sub-folders included', async () => {
    const registry = await temp.load({ watchDebounceMs: 30 });
    await registry.watch();
    await temp.layout.write(join(temp.layout.dirs.project, 'later.md'), agentFile('later'));
    await eventually(() => expect(registry.get('later')?.level).toBe('project'));
    await temp.layout.write(
      join(temp.layout.dirs.claude, 'team', 'deep', 'nested.md'),
      agentFile('nested', 'tools: Read, Bash\n'),
    );
    await eventually(() =>
      expect(registry.get('nested')?.definition.tools).toEqual(['Read', 'Bash']),
    );
    await temp.layout.write(join(temp.layout.dirs.user, 'mine.md'), agentFile('mine'));
    await eventually(() => expect(registry.get('mine')?.level).toBe('user'));
  });

  it('still notices files after the definitions folder is deleted and re-created', async () => {
    await temp.layout.write(join(temp.layout.dirs.project, 'first.md'), agentFile('first'));
    const registry = await temp.load({ watchDebounceMs: 30 });
    await registry.watch();
    await rm(join(temp.layout.config.workspace, '.subagents'), { recursive: true });
    await eventually(() => expect(registry.get('first')).toBeUndefined());
    await temp.layout.write(join(temp.layout.dirs.project, 'second.md'), agentFile('second'));
    await eventually(() => expect(registry.get('second')?.level).toBe('project'));
  });

  it('ignores files that are not definitions, and stops on close', async () => {
    await mkdir(temp.layout.dirs.project, { recursive: true });
    const registry = await temp.load({ watchDebounceMs: 30 });
    let reloads = 0;
    await registry.watch(() => reloads++);
    await writeFile(join(temp.layout.dirs.project, 'notes.txt'), 'not an agent');
    await writeFile(join(temp.layout.config.workspace, 'unrelated.md'), agentFile('unrelated'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reloads).toBe(0);
    await registry.close();
    await writeFile(join(temp.layout.dirs.project, 'after-close.md'), agentFile('after-close'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(registry.get('after-close')).toBeUndefined();
  });
});
