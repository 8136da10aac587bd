/**
 * The sandbox's seccomp filter, as the classic BPF program bwrap's `--seccomp FD` loads: the
 * system calls behind the classic escapes are refused, everything else runs. Assembled here
 * (no libseccomp), for x86-64 only; on another architecture there is no filter and the
 * namespaces, the dropped capabilities and no-new-privileges stand alone.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const AUDIT_ARCH_X86_64 = 0xc000003e;
/** x32 system calls share x86-64's numbers with this bit set: refused whole. */
const X32_SYSCALL_BIT = 0x40000000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

// struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian,
// so an argument's low 32 bits sit at its own offset).
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const argOffset = (index: number): number => 16 + 8 * index;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

/** Refused outright: tracing or reading other processes, the kernel's own surfaces, mounts. */
const REFUSED: Record<string, number> = {
  ptrace: 101,
  process_vm_readv: 310,
  process_vm_writev: 311,
  mount: 165,
  umount2: 166,
  pivot_root: 155,
  move_mount: 429,
  open_tree: 428,
  fsopen: 430,
  fsmount: 432,
  unshare: 272,
  setns: 308,
  keyctl: 250,
  add_key: 248,
  request_key: 249,
  bpf: 321,
  perf_event_open: 298,
  userfaultfd: 323,
  kexec_load: 246,
  kexec_file_load: 320,
  init_module: 175,
  finit_module: 313,
  delete_module: 176,
  reboot: 169,
  swapon: 167,
  swapoff: 168,
  acct: 163,
  open_by_handle_at: 304,
  name_to_handle_at: 303,
  // io_uring runs file and socket operations where this filter cannot see them.
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
};

/**
 * Refused as if the kernel lacked them, so the C library falls back to a call the filter can
 * read: clone3 hides its flags in memory (glibc retries with clone), openat2 its mode.
 */
const ABSENT: Record<string, number> = { clone3: 435, openat2: 437 };

/**
 * Refused when an argument carries these bits. A file the sandbox makes setuid or setgid would be
 * the worker's own program outside for anyone who can run it (the workspace is bound as it is);
 * namespaces made with clone would hand back capabilities; TIOCSTI and TIOCLINUX push keystrokes
 * into a terminal outside.
 */
const SET_ID_BITS = 0o6000;
const CLONE_NAMESPACE_FLAGS = 0x7e020080;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const WHEN_ARGUMENT: Array<{ nr: number; arg: number; bits?: number; equals?: number[] }> = [
  { nr: 90, arg: 1, bits: SET_ID_BITS }, // chmod
  { nr: 91, arg: 1, bits: SET_ID_BITS }, // fchmod
  { nr: 268, arg: 2, bits: SET_ID_BITS }, // fchmodat
  { nr: 452, arg: 2, bits: SET_ID_BITS }, // fchmodat2
  { nr: 2, arg: 2, bits: SET_ID_BITS }, // open (its mode, used with O_CREAT)
  { nr: 257, arg: 3, bits: SET_ID_BITS }, // openat
  { nr: 85, arg: 1, bits: SET_ID_BITS }, // creat
  { nr: 133, arg: 1, bits: SET_ID_BITS }, // mknod
  { nr: 259, arg: 2, bits: SET_ID_BITS }, // mknodat
  { nr: 56, arg: 0, bits: CLONE_NAMESPACE_FLAGS }, // clone
  { nr: 16, arg: 1, equals: [TIOCSTI, TIOCLINUX] }, // ioctl
];

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The filter program, one 8-byte `struct sock_filter` per instruction. */
export function seccompProgram(): Buffer {
  const deny = (errno: number): Instruction => [RET_K, 0, 0, SECCOMP_RET_ERRNO | errno];
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, ARCH_OFFSET],
    [JEQ_K, 1, 0, AUDIT_ARCH_X86_64],
    [RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, NR_OFFSET],
    [JGE_K, 0, 1, X32_SYSCALL_BIT],
    deny(EPERM),
  ];
  for (const nr of Object.values(REFUSED)) program.push([JEQ_K, 0, 1, nr], deny(EPERM));
  for (const nr of Object.values(ABSENT)) program.push([JEQ_K, 0, 1, nr], deny(ENOSYS));
  for (const rule of WHEN_ARGUMENT) {
    // The number matches: load the argument, test it (a match jumps to the refusal, the last
    // miss over it), then load the number again for the rules after.
    const tests =
      rule.bits !== undefined
        ? [[JSET_K, rule.bits]]
        : (rule.equals ?? []).map((value) => [JEQ_K, value]);
    const last = tests.length - 1;
    const block: Instruction[] = [
      [LD_W_ABS, 0, 0, argOffset(rule.arg)],
      ...tests.map(([code = JEQ_K, k = 0], index): Instruction => [
        code,
        last - index,
        index === last ? 1 : 0,
        k,
      ]),
      deny(EPERM),
      [LD_W_ABS, 0, 0, NR_OFFSET],
    ];
    program.push([JEQ_K, 0, block.length, rule.nr], ...block);
  }
  program.push([RET_K, 0, 0, SECCOMP_RET_ALLOW]);

  const buffer = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    buffer.writeUInt16LE(code, index * 8);
    buffer.writeUInt8(jt, index * 8 + 2);
    buffer.writeUInt8(jf, index * 8 + 3);
    buffer.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return buffer;
}

let written: string | undefined;

/**
 * The program in a file of a private folder, for the sh in front of bwrap to open on the
 * descriptor `--seccomp` names: written once per process, again if a temp cleaner removed it,
 * removed when the process exits. Undefined where the filter does not apply.
 */
export function seccompFile(): string | undefined {
  if (process.arch !== 'x64') return undefined;
  if (written !== undefined && existsSync(written)) return written;
  const folder = mkdtempSync(path.join(tmpdir(), 'deputy-seccomp-'));
  const file = path.join(folder, 'filter.bpf');
  writeFileSync(file, seccompProgram(), { mode: 0o400 });
  if (written === undefined) {
    process.once('exit', () => {
      if (written !== undefined) rmSync(path.dirname(written), { recursive: true, force: true });
    });
  }
  written = file;
  return written;
}
