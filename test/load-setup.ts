/**
 * The suite's loaded mode (`DEPUTY_TEST_LOAD=1 npm test`): a busy loop on one core for the whole
 * run, so a test that only passes on an idle machine fails here first, not on a loaded CI. Every
 * project names this setup; the loop is one per vitest process however many projects run (they
 * share the process's global object) and ends with the last of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';

interface LoadState {
  loop: ChildProcess;
  users: number;
}

const KEY = Symbol.for('deputy.test-load');
const shared = globalThis as typeof globalThis & { [KEY]?: LoadState };

export default function setup(): (() => void) | undefined {
  if (process.env.DEPUTY_TEST_LOAD !== '1') return undefined;
  const state = (shared[KEY] ??= {
    loop: spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
    users: 0,
  });
  state.users += 1;
  if (state.users === 1)
    process.stderr.write('DEPUTY_TEST_LOAD=1: one core kept busy for the whole run\n');
  return () => {
    state.users -= 1;
    if (state.users > 0) return;
    state.loop.kill('SIGKILL');
    delete shared[KEY];
  };
}
