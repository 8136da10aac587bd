#!/usr/bin/env python3
"""Runs a command on a real pseudo-terminal, for end-to-end tests of interactive commands.

    python3 pty-run.py <command> [args...]

The command's stdin, stdout and stderr are the slave side of a fresh pty (200x50), so it sees a
TTY exactly as in a terminal emulator: readline raw mode, echo, Ctrl-C as a byte. Bytes written to
this script's stdin are typed into the terminal; everything the terminal shows is copied to this
script's stdout. End of stdin is not forwarded (closing the master would hang the terminal up):
send Ctrl-D (\\x04) to mean end of input. Exits with the command's exit code (128 + signal).
Node has no pty of its own and node-pty needs a native build, hence Python's pty module.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios


def write_all(fd, data):
    while data:
        written = os.write(fd, data)
        data = data[written:]


def main():
    argv = sys.argv[1:]
    if not argv:
        sys.stderr.write("usage: pty-run.py <command> [args...]\n")
        return 2
    pid, master = pty.fork()
    if pid == 0:
        # In the child, fd 0 is the slave: size it before the command reads its size.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    stdin_open = True
    while True:
        fds = [master] + ([0] if stdin_open else [])
        readable, _, _ = select.select(fds, [], [])
        if master in readable:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every slave fd closed, the command is gone
                data = b""
            if not data:
                break
            write_all(1, data)
        if 0 in readable:
            data = os.read(0, 65536)
            if data:
                write_all(master, data)
            else:
                stdin_open = False
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
