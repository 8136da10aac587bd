/**
 * Escape attempts against the bubblewrap sandbox: real bwrap, real bash, a temporary workspace
 * beside a fake data directory and a fake home holding fake secrets. Each attempt runs as the
 * bash tool would run it and is judged from outside: the secret is not in what came back, the
 * outside file is unchanged, the test's own servers counted no connection.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname, networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBubblewrap, sandboxedArgv } from '../../src/sandbox/bubblewrap.js';
import { processCeiling } from '../../src/sandbox/limits.js';
import type { SandboxBounds, SandboxLimits } from '../../src/shared/sandbox-contract.js';

const SECRET = `fake-secret-${randomBytes(8).toString('hex')}`;
const ENV_SECRET = `fake-env-secret-${randomBytes(8).toString('hex')}`;
const bwrapFound = findBubblewrap();

interface Outcome {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The test had to kill it: the sandbox did not end the call by itself. */
  killedByTest: boolean;
}

let root = '';
let workspace = '';
let readOnlyDir = '';
let dataDir = '';
let home = '';
let outsideFile = '';
const tmpMarker = `/tmp/deputy-sandbox-marker-${randomBytes(6).toString('hex')}`;
const servers: Server[] = [];
let connections = 0;
let tcpPort = 0;
let abstractName = '';
const LEASE_BREAK_TIME = '/proc/sys/fs/lease-break-time';
const readLeaseBreakTime = (): number => Number(readFileSync(LEASE_BREAK_TIME, 'utf8').trim());
const leaseBreakTime = readLeaseBreakTime();

function listen(server: Server, ...args: unknown[]): Promise<void> {
  servers.push(server);
  server.on('connection', (socket) => {
    connections += 1;
    socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    (server.listen as (...a: unknown[]) => void)(...args, () => resolve());
  });
}

function bounds(limits: SandboxLimits = {}): SandboxBounds {
  return {
    readWrite: [workspace],
    readOnly: [readOnlyDir, home],
    env: ['ALLOWED_VAR'],
    limits,
  };
}

function runSandboxed(
  script: string,
  options: { limits?: SandboxLimits; killAfterMs?: number; during?: (out: Outcome) => void } = {},
): Promise<Outcome> {
  const { file, args, env } = sandboxedArgv(bounds(options.limits), ['bash', '-c', script], {
    hidden: [
      dataDir,
      path.join(home, '.ssh'),
      path.join(home, '.config', 'deputy'),
      path.join(home, '.netrc'),
    ],
    from: { ...process.env, DEPUTY_FAKE_TOKEN: ENV_SECRET, ALLOWED_VAR: 'visible-value' },
    cwd: workspace,
  });
  return new Promise((resolve) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const outcome: Outcome = {
      stdout: '',
      stderr: '',
      code: null,
      signal: null,
      killedByTest: false,
    };
    child.stdout.on('data', (chunk: Buffer) => {
      // Kept bounded: the flood attempt writes megabytes.
      if (outcome.stdout.length < 1_000_000) outcome.stdout += chunk.toString('utf8');
      options.during?.(outcome);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (outcome.stderr.length < 1_000_000) outcome.stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      outcome.killedByTest = true;
      child.kill('SIGKILL');
    }, options.killAfterMs ?? 20_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ ...outcome, code, signal });
    });
  });
}

function leaksNothing(outcome: Outcome): void {
  const all = outcome.stdout + outcome.stderr;
  expect(all).not.toContain(SECRET);
  expect(all).not.toContain(ENV_SECRET);
}

/** A Unix socket connection from inside (bash has none of its own); `abstract` names no file. */
function perlConnect(address: string, options: { abstract?: boolean } = {}): string {
  const name = options.abstract === true ? '"\\0" . $ARGV[0]' : '$ARGV[0]';
  return `perl -e 'use Socket; socket(my $s, AF_UNIX, SOCK_STREAM, 0) or die "socket: $!"; connect($s, pack_sockaddr_un(${name})) or die "refused: $!\\n"; print "connected\\n"' ${address}`;
}

interface Attempt {
  name: string;
  script: () => string;
  check: (outcome: Outcome) => void;
}

const attempts: Attempt[] = [
  {
    name: "reads /proc/1/environ and every process's environment",
    script: () => 'cat /proc/1/environ; for f in /proc/[0-9]*/environ; do cat "$f"; done',
    check: (outcome) => {
      leaksNothing(outcome);
      // Not even where the worker runs.
      expect(outcome.stdout).not.toContain(process.cwd());
    },
  },
  {
    name: "prints the worker's environment",
    script: () => 'env; echo "token=$DEPUTY_FAKE_TOKEN"',
    check: (outcome) => {
      leaksNothing(outcome);
      expect(outcome.stdout).toContain('token=\n');
    },
  },
  {
    name: 'reads the home directory’s SSH key',
    script: () => `cat ${home}/.ssh/id_ed25519; ls -la ${home}/.ssh`,
    check: (outcome) => leaksNothing(outcome),
  },
  {
    name: 'reads a hidden file inside the readable home',
    script: () => `cat ${home}/.netrc; cp ${home}/.netrc stolen && cat stolen`,
    check: (outcome) => leaksNothing(outcome),
  },
  {
    name: 'reads the data directory’s configuration',
    script: () => `cat ${dataDir}/config.yaml; ls ${dataDir}`,
    check: (outcome) => leaksNothing(outcome),
  },
  {
    name: 'reads the configuration folder inside the readable home',
    script: () => `cat ${home}/.config/deputy/config.yaml; ls -la ${home}/.config/deputy`,
    check: (outcome) => leaksNothing(outcome),
  },
  {
    name: 'reads the data directory through a symlink made in the workspace',
    script: () =>
      `ln -s ${dataDir}/config.yaml abs-link; ln -s ../data/config.yaml rel-link; cat abs-link rel-link`,
    check: (outcome) => leaksNothing(outcome),
  },
  {
    name: 'reads the SSH key through a symlink to the home folder',
    script: () => `ln -s ${home} home-link; cat home-link/.ssh/id_ed25519`,
    check: (outcome) => leaksNothing(outcome),
  },
  {
    name: 'hard-links the configuration into the workspace',
    script: () => `ln ${dataDir}/config.yaml hard-link; cat hard-link`,
    check: (outcome) => {
      leaksNothing(outcome);
      expect(existsSync(path.join(workspace, 'hard-link'))).toBe(false);
    },
  },
  {
    name: 'writes into /usr',
    script: () => 'echo pwned > /usr/deputy-escape; echo pwned > /usr/bin/deputy-escape',
    check: () => {
      expect(existsSync('/usr/deputy-escape')).toBe(false);
      expect(existsSync('/usr/bin/deputy-escape')).toBe(false);
    },
  },
  {
    name: 'writes into /etc',
    script: () => 'echo pwned > /etc/deputy-escape; echo "evil:x:0:0::/:/bin/sh" >> /etc/passwd',
    check: () => {
      expect(existsSync('/etc/deputy-escape')).toBe(false);
      expect(readFileSync('/etc/passwd', 'utf8')).not.toContain('evil:x:0:0');
    },
  },
  {
    name: 'writes into the real /tmp',
    script: () => `echo pwned > ${tmpMarker}; ls ${tmpMarker}`,
    check: () => expect(existsSync(tmpMarker)).toBe(false),
  },
  {
    name: 'writes a file beside the workspace',
    script: () => `echo pwned > ${outsideFile}; echo pwned > ../outside.txt`,
    check: () => expect(readFileSync(outsideFile, 'utf8')).toBe('untouched\n'),
  },
  {
    name: 'writes into a read-only path',
    script: () =>
      `echo pwned > ${readOnlyDir}/ro.txt; rm -f ${readOnlyDir}/ro.txt; touch ${readOnlyDir}/new`,
    check: () => {
      expect(readFileSync(path.join(readOnlyDir, 'ro.txt'), 'utf8')).toBe('read-only content\n');
      expect(existsSync(path.join(readOnlyDir, 'new'))).toBe(false);
    },
  },
  {
    name: 'overwrites the SSH key',
    script: () => `echo pwned > ${home}/.ssh/id_ed25519`,
    check: () =>
      expect(readFileSync(path.join(home, '.ssh', 'id_ed25519'), 'utf8')).toContain(SECRET),
  },
  {
    name: 'connects to a loopback TCP port',
    script: () => `exec 3<>/dev/tcp/127.0.0.1/${tcpPort} && echo connected`,
    check: (outcome) => {
      expect(connections).toBe(0);
      expect(outcome.stdout).not.toContain('connected');
    },
  },
  {
    name: 'connects to the loopback port over IPv6',
    script: () => `exec 3<>/dev/tcp/::1/${tcpPort} && echo connected`,
    check: () => expect(connections).toBe(0),
  },
  {
    name: "connects to the machine's own external addresses",
    script: () =>
      externalAddresses()
        .map((address) => `(exec 3<>/dev/tcp/${address}/${tcpPort}) && echo connected`)
        .join('; ') || 'true',
    check: () => expect(connections).toBe(0),
  },
  {
    name: 'connects to a Unix socket outside the sandbox',
    script: () =>
      `${perlConnect(path.join(root, 'outside.sock'))}; ${perlConnect(path.join(dataDir, 'deputy.sock'))}`,
    check: (outcome) => {
      expect(connections).toBe(0);
      expect(outcome.stdout).not.toContain('connected');
    },
  },
  {
    name: 'connects to an abstract Unix socket of the host',
    script: () => perlConnect(abstractName, { abstract: true }),
    check: (outcome) => {
      expect(connections).toBe(0);
      expect(outcome.stdout).not.toContain('connected');
    },
  },
  {
    name: 'resolves a name through DNS',
    script: () => 'getent hosts example.com',
    check: (outcome) => {
      expect(outcome.code).not.toBe(0);
      expect(outcome.stdout.trim()).toBe('');
    },
  },
  {
    name: 'fetches a web page',
    script: () => 'curl -sS -m 5 http://example.com/ && echo fetched',
    check: (outcome) => expect(outcome.stdout).not.toContain('fetched'),
  },
  {
    name: 'mounts a tmpfs over the workspace',
    script: () =>
      'mkdir -p m && mount -t tmpfs none m && echo mounted; mount --bind / m && echo bound',
    check: (outcome) => {
      expect(outcome.stdout).not.toMatch(/mounted|bound/);
      expect(readdirSync(path.join(workspace, 'm'))).toEqual([]);
    },
  },
  {
    name: 'chroots',
    script: () => 'chroot / /bin/true && echo chrooted',
    check: (outcome) => expect(outcome.stdout).not.toContain('chrooted'),
  },
  {
    name: 'makes a user namespace of its own to regain capabilities',
    script: () =>
      'unshare -r id && echo unshared; unshare -rm mount -t tmpfs none /usr && echo remounted',
    check: (outcome) => expect(outcome.stdout).not.toMatch(/unshared|remounted/),
  },
  {
    name: 'reads the test process’s memory',
    script: () =>
      `ls -d /proc/${process.pid}; cat /proc/${process.pid}/mem | head -c 100; cat /proc/${process.pid}/environ`,
    check: (outcome) => {
      leaksNothing(outcome);
      expect(outcome.stderr).toContain('No such file or directory');
    },
  },
  {
    name: 'lists the host’s processes',
    script: () => 'ls /proc | grep -E "^[0-9]+$"',
    check: (outcome) => {
      const pids = outcome.stdout.trim().split('\n');
      expect(pids).not.toContain(String(process.pid));
      // bwrap's init, the command, ls and grep: nothing of the host.
      expect(pids.length).toBeLessThan(8);
    },
  },
  {
    name: 'kills the test process',
    script: () => `kill -9 ${process.pid}; kill -9 -1; echo still-here`,
    check: () => expect(process.kill(process.pid, 0)).toBe(true),
  },
  {
    name: 'becomes root through su',
    script: () => 'su -c "id -u" root </dev/null; echo "uid=$(id -u)"',
    check: (outcome) => {
      expect(outcome.stdout).not.toMatch(/^0$/m);
      expect(outcome.stdout).toContain('uid=65534');
    },
  },
  {
    name: 'runs a copied binary made setuid',
    script: () => 'cp /usr/bin/id ./myid && chmod u+s ./myid; ./myid -u; ./myid -ru',
    check: (outcome) => {
      expect(outcome.stdout).not.toMatch(/^0$/m);
      // Outside, the copy is owned by the worker: the setuid bit would make it the worker's
      // program for anyone who can run it.
      const copy = path.join(workspace, 'myid');
      if (existsSync(copy)) expect(statSync(copy).mode & 0o4000).toBe(0);
    },
  },
  {
    name: 'creates a file already setuid, or installs one',
    script: () =>
      `perl -e 'use Fcntl; sysopen(my $f, "made-setuid", O_CREAT|O_WRONLY, 04755) or die "refused: $!\\n"'; install -m 4755 /usr/bin/id ./installed-setuid`,
    check: () => {
      for (const name of ['made-setuid', 'installed-setuid']) {
        const made = path.join(workspace, name);
        if (existsSync(made)) expect(statSync(made).mode & 0o6000).toBe(0);
      }
    },
  },
  {
    name: 'attaches to a process with ptrace',
    script: () =>
      'perl -e \'$r = syscall(101, 16, 1, 0, 0); print $r == -1 ? "refused: $!\\n" : "attached\\n"\'',
    check: (outcome) => {
      expect(outcome.stdout).toContain('refused');
      expect(outcome.stdout).not.toContain('attached');
    },
  },
  {
    name: 'writes to /sys',
    script: () =>
      'echo 1 > /sys/kernel/mm/ksm/run; echo b > /proc/sysrq-trigger; ls /sys | head -3',
    check: (outcome) => {
      expect(outcome.stdout.trim()).toBe('');
    },
  },
  {
    name: 'changes the host name',
    script: () =>
      'hostname pwned; sysctl -w kernel.hostname=pwned; echo pwned > /proc/sys/kernel/hostname',
    check: () => expect(hostname()).not.toBe('pwned'),
  },
  {
    name: 'changes a kernel setting of the whole machine',
    // A harmless setting (how long a file lease holder may keep it), put back if it ever changes.
    script: () =>
      `sysctl -w fs.lease-break-time=${leaseBreakTime + 1}; echo ${leaseBreakTime + 1} > /proc/sys/fs/lease-break-time`,
    check: () => expect(readLeaseBreakTime()).toBe(leaseBreakTime),
  },
  {
    name: 'reads /etc/shadow',
    script: () => 'cat /etc/shadow /etc/gshadow; ls /etc/ssh /etc/ssl/private',
    check: (outcome) => {
      const firstLine = readFileSync('/etc/shadow', 'utf8').split('\n')[0] ?? '';
      expect(firstLine).not.toBe('');
      expect(outcome.stdout).not.toContain(firstLine);
    },
  },
];

const describeWithBwrap = bwrapFound.ok ? describe : describe.skip;

describeWithBwrap('the bubblewrap sandbox', () => {
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'deputy-sandbox-'));
    workspace = path.join(root, 'ws');
    readOnlyDir = path.join(root, 'ro');
    dataDir = path.join(root, 'data');
    home = path.join(root, 'home');
    outsideFile = path.join(root, 'outside.txt');
    for (const folder of [workspace, readOnlyDir, dataDir, path.join(home, '.ssh')]) {
      mkdirSync(folder, { recursive: true });
    }
    mkdirSync(path.join(home, '.config', 'deputy'), { recursive: true });
    writeFileSync(path.join(readOnlyDir, 'ro.txt'), 'read-only content\n');
    writeFileSync(path.join(home, 'notes.txt'), 'home notes\n');
    writeFileSync(path.join(home, '.netrc'), `machine example.com password ${SECRET}\n`);
    writeFileSync(path.join(home, '.ssh', 'id_ed25519'), `-----BEGIN KEY-----\n${SECRET}\n`);
    writeFileSync(path.join(home, '.config', 'deputy', 'config.yaml'), `token: ${SECRET}\n`);
    writeFileSync(path.join(dataDir, 'config.yaml'), `apiKey: ${SECRET}\n`);
    writeFileSync(outsideFile, 'untouched\n');
    writeFileSync(path.join(workspace, 'inside.txt'), 'inside\n');
    await listen(createServer(), 0, '0.0.0.0');
    const address = servers[0]?.address();
    tcpPort = typeof address === 'object' && address !== null ? address.port : 0;
    await listen(createServer(), tcpPort, '::1');
    await listen(createServer(), path.join(root, 'outside.sock'));
    await listen(createServer(), path.join(dataDir, 'deputy.sock'));
    abstractName = `deputy-test-${randomBytes(6).toString('hex')}`;
    await listen(createServer(), `\0${abstractName}`);
  });

  afterAll(async () => {
    await Promise.all(
      servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
    );
    rmSync(root, { recursive: true, force: true });
    rmSync(tmpMarker, { force: true });
    if (readLeaseBreakTime() !== leaseBreakTime) {
      writeFileSync(LEASE_BREAK_TIME, `${leaseBreakTime}\n`);
    }
  });

  it('lets the test reach its own servers, so a zero count means the sandbox refused', async () => {
    const reached = spawnSync('bash', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${tcpPort}`]);
    expect(reached.status).toBe(0);
    await waitFor(() => connections === 1);
    connections = 0;
  });

  it.each(attempts)('refuses an attempt that $name', async ({ script, check }) => {
    const outcome = await runSandboxed(script());
    expect(outcome.killedByTest).toBe(false);
    leaksNothing(outcome);
    check(outcome);
  });

  it('shows only what is bound when a workspace symlink is swapped during the call', async () => {
    const link = path.join(workspace, 'swapped');
    symlinkSync('inside.txt', link);
    let swapped = false;
    const outcome = await runSandboxed(
      'for i in $(seq 1 100); do cat swapped 2>/dev/null; echo "#"; sleep 0.02; done',
      {
        during: (sofar) => {
          if (swapped || !sofar.stdout.includes('inside')) return;
          swapped = true;
          unlinkSync(link);
          symlinkSync(path.join(dataDir, 'config.yaml'), link);
        },
      },
    );
    expect(swapped).toBe(true);
    expect(outcome.killedByTest).toBe(false);
    leaksNothing(outcome);
    // Both before and after: the first reads went through, the later ones found nothing.
    expect(outcome.stdout).toContain('inside');
  });

  it('ends a CPU spin past its CPU seconds', async () => {
    const outcome = await runSandboxed('while :; do :; done', {
      limits: { cpuSeconds: 2 },
      killAfterMs: 60_000,
    });
    expect(outcome.killedByTest).toBe(false);
    // bwrap reports its command's death by SIGXCPU (24) or SIGKILL (9) as 128 + the signal.
    expect([128 + 24, 128 + 9]).toContain(outcome.code);
  });

  it('fails an allocation past its memory', async () => {
    const outcome = await runSandboxed(
      'x=$(head -c 200000000 /dev/zero | tr "\\0" a); echo "length ${#x}"',
      { limits: { memoryMiB: 64 } },
    );
    expect(outcome.killedByTest).toBe(false);
    expect(outcome.stdout).not.toContain('length 200000000');
  });

  it('ends an output flood on its own', async () => {
    const outcome = await runSandboxed('yes flood | head -c 20000000; echo done >&2');
    expect(outcome.killedByTest).toBe(false);
    expect(outcome.stderr).toContain('done');
  });

  it.skipIf(processCeiling().kind === 'none')(
    'holds a fork bomb under its process ceiling and leaves nothing running',
    async () => {
      const tag = `bomb_${randomBytes(4).toString('hex')}`;
      let most = 0;
      const sampler = setInterval(() => {
        most = Math.max(most, countProcesses(tag));
      }, 100);
      const outcome = await runSandboxed(`${tag}() { ${tag} | ${tag} & }; ${tag}; sleep 3`, {
        limits: { processes: 32 },
        killAfterMs: 6_000,
      });
      clearInterval(sampler);
      leaksNothing(outcome);
      // bwrap, its init, prlimit's bash and the wrapper besides the command's 32.
      expect(most).toBeLessThanOrEqual(32 + 4);
      await waitFor(() => countProcesses(tag) === 0);
    },
  );

  it('leaves nothing running when the sandbox is killed', async () => {
    // A duration no other process on the machine sleeps, so pgrep finds only these.
    const tag = `sleep 300.${randomBytes(3).readUIntBE(0, 3)}`;
    const outcome = await runSandboxed(`(${tag}) & ${tag}`, {
      killAfterMs: 1_000,
    });
    expect(outcome.killedByTest).toBe(true);
    await waitFor(() => countProcesses(tag) === 0);
  });

  it('writes in the workspace', async () => {
    const outcome = await runSandboxed('echo made > new.txt && mkdir -p sub && echo deep > sub/f');
    expect(outcome.code).toBe(0);
    expect(readFileSync(path.join(workspace, 'new.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(path.join(workspace, 'sub', 'f'), 'utf8')).toBe('deep\n');
  });

  it('reads a read-only path and the visible part of the home folder', async () => {
    const outcome = await runSandboxed(`cat ${readOnlyDir}/ro.txt ${home}/notes.txt`);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('read-only content\nhome notes\n');
  });

  it('passes the declared environment variables and no other', async () => {
    const outcome = await runSandboxed('echo "$ALLOWED_VAR"; env | cut -d= -f1 | sort');
    expect(outcome.stdout.split('\n')[0]).toBe('visible-value');
    const names = outcome.stdout
      .split('\n')
      .slice(1)
      .filter((name) => name !== '');
    expect(
      names.filter(
        (name) => !['ALLOWED_VAR', 'HOME', 'LANG', 'PATH', 'PWD', 'SHLVL', '_'].includes(name),
      ),
    ).toEqual([]);
  });

  it('holds at least thirty escape attempts', () => {
    expect(attempts.length).toBeGreaterThanOrEqual(30);
  });
});

describe('finding bubblewrap', () => {
  it('says what is missing and how to install it when PATH has no bwrap', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'deputy-no-bwrap-'));
    try {
      const result = findBubblewrap(empty);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problem).toContain('bubblewrap');
      expect(result.problem).toContain('apt-get install bubblewrap');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && entry.family === 'IPv4')
    .map((entry) => entry.address);
}

/** Processes of the whole machine whose command line holds `tag`. */
function countProcesses(tag: string): number {
  const found = spawnSync('pgrep', ['-c', '-f', tag], { encoding: 'utf8' });
  return Number.parseInt(found.stdout.trim() || '0', 10);
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(condition()).toBe(true);
}
