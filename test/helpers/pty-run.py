"""Runs a command in a real pseudo-terminal and types into it (codexbar's tests of hidden prompts).

argv[1] is JSON: {"argv": [...], "env": {...}, "cwd": "...", "steps": [{"expect": "text", "send": "text"}]}.
Each step waits for `expect` in the terminal output, then types `send`. Prints JSON {"code", "output"}: the
exit code and everything the terminal showed (what an echo would have put there included).
"""
import json
import os
import pty
import select
import sys

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec.get("cwd", "."))
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])

output = b""


def read_some(timeout):
    global output
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return False
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the child closed the terminal
        return None
    if not chunk:
        return None
    output += chunk
    return True


for step in spec["steps"]:
    expected = step["expect"].encode()
    while expected not in output:
        if read_some(20) in (False, None):
            sys.stdout.write(json.dumps({"code": None, "output": output.decode("utf-8", "replace"), "stuck": step["expect"]}))
            os.kill(pid, 9)
            sys.exit(0)
    os.write(fd, step["send"].encode())

while read_some(20):
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(json.dumps({"code": os.waitstatus_to_exitcode(status), "output": output.decode("utf-8", "replace")}))
