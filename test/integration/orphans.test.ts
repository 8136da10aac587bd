/**
 * Nothing deputy starts outlives the process that started it. A `bash` command dies
 * with its SIGKILLed worker, children included; the Temporal dev server's side of this is in
 * test/e2e/dev.test.ts (a SIGKILLed `deputy dev`) and test/temporal/server-takeover.test.ts
 * (what a new server does about one recorded by a deputy that is gone or still running).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  groupMembers,
  growing,
  heartbeatLoop,
  killGroup,
  stopGrowing,
} from '../support/processes.js';
import { createHarness, eventually } from './support/harness.js';
import { killWorker, spawnWorker } from './support/worker-process.js';
import { useCleanups } from '../support/cleanups.js';

/** The shell beats, and so does a child of it that ignores SIGTERM and SIGHUP. */
const heartbeatCommand = [
  'echo $$ > group.pid',
  `bash -c 'trap "" TERM HUP; ${heartbeatLoop('child.beat')}' &`,
  heartbeatLoop('shell.beat'),
].join('\n');

const heartbeatAgent = {
  '.subagents/agents/heartbeat.md':
    '---\nname: heartbeat\ndescription: runs a command that never ends\nmodel: scripted:scripts/heartbeat.yaml\ntools: [bash]\napprovalMode: full-access\n---\nBeat.\n',
  'scripts/heartbeat.yaml': `turns:
  - text: Beating.
    toolCalls:
      - name: bash
        arguments:
          timeout_seconds: 600
          command: ${JSON.stringify(heartbeatCommand)}
  - text: Done.
`,
};

const cleanups = useCleanups();

describe('orphans', () => {
  it('a bash command and its children die with their SIGKILLed worker', async () => {
    const harness = await createHarness(heartbeatAgent, { startWorker: false });
    cleanups.push(() => harness.close());
    const worker = await spawnWorker(harness, cleanups);
    const handle = await harness.start('heartbeat', 'Beat');
    cleanups.push(() =>
      handle.terminate('test over').then(
        () => undefined,
        () => undefined,
      ),
    );

    const group = await eventually(async () => {
      const text = await readFile(join(harness.workspace, 'group.pid'), 'utf8').catch(() => '');
      return text.trim() === '' ? undefined : Number(text.trim());
    }, 'the command to start');
    // On a build without the watchdog the beats never stop: kill them here, not never.
    cleanups.push(async () => killGroup(group));
    const beats = ['shell.beat', 'child.beat'].map((name) => join(harness.workspace, name));
    await growing(beats);

    await killWorker(worker);
    // Hang guard, not a speed claim: SIGTERM at once, SIGKILL after bash's 2 s grace.
    await stopGrowing(beats, 20_000);
    expect(groupMembers(group)).toEqual([]);
  });
});
