/**
 * A POSIX sh run in front of bwrap, for what bwrap cannot do from its argv alone. It opens the
 * seccomp filter on the descriptor `--seccomp` names (an argv cannot carry a descriptor), and,
 * where the process ceiling is a pids cgroup, makes one named after its own pid, caps it and
 * moves itself in: it then execs bwrap, so bwrap keeps its pid (the caller's signals and exit
 * status are bwrap's) and all it starts is counted in the cgroup. Cgroups of calls whose process
 * is gone are removed on the way, in the background (rmdir refuses a cgroup still in use).
 */
/** The descriptor the filter arrives on: above stdio and the watchdog's pipes. */
export const SECCOMP_FD = 9;

const LAUNCHER_SCRIPT = `filter=$1; parent=$2; max=$3; shift 3
# The shell exports the worker's folder as PWD: the sandbox is told nothing of where deputy runs.
unset PWD OLDPWD
if [ -n "$parent" ]; then
  # In the background, before this shell joins its own cgroup: removing a cgroup waits on the
  # kernel for milliseconds, which no call should wait for. No output pipe is held open.
  (
    for old in "$parent"/deputy-sandbox-*; do
      [ -d "$old" ] || continue
      kill -0 "\${old##*-}" 2>/dev/null || rmdir "$old" 2>/dev/null
    done
  ) </dev/null >/dev/null 2>&1 &
  own="$parent/deputy-sandbox-$$"
  if ! { mkdir -p "$own" && echo "$max" >"$own/pids.max" && echo $$ >"$own/cgroup.procs"; }; then
    echo "deputy: could not limit the sandbox's processes in $own" >&2
    exit 125
  fi
fi
if [ -n "$filter" ]; then exec "$@" ${SECCOMP_FD}<"$filter"; fi
exec "$@"`;

/** The argv prefix in front of bwrap's own: the filter file and the cgroup parent, or none. */
export function launcher(options: {
  seccompFile: string | undefined;
  cgroupParent: string | undefined;
  processes: number;
}): string[] {
  return [
    '/bin/sh',
    '-c',
    LAUNCHER_SCRIPT,
    'deputy-sandbox',
    options.seccompFile ?? '',
    options.cgroupParent ?? '',
    String(options.processes),
  ];
}
