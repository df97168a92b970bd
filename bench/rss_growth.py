#!/usr/bin/env python3
"""Does the scheduler's memory level off under churn? (issue #44 item 10)

  rss_growth.py [--rounds 16] [--pods 1000] [--nodes 100] [--idle 480] [--schedulers ours,upstream]
                [--build-dir build] [--out FILE.jsonl] [--wrapper "heaptrack -o FILE"] [--mallinfo]

On a control plane of its own per scheduler (tests/controlplane/start.sh), each round creates PODS
pods with names never used before (so that nothing keyed by name can be reused), waits until every
one is bound, deletes them all and waits until the scheduler's watch has seen the deletions (its
pending and cached pod counts back to zero, from /metrics for ours), then samples the process's
VmRSS, VmHWM and, for ours, the allocator's view (mallinfo2 through /metrics if exported, else
skipped). After the rounds the process idles IDLE seconds, sampled every 30 s: memory that only
grows during rounds and gives nothing back idle is what to bound.

Prints one line per sample and writes them as JSON lines with --out. Only processes started here
are signalled, by PID.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "chaos"))
import chaos  # noqa: E402  (the control plane, scheduler processes and watcher of the chaos suite)


def status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def mallinfo(pid):
    """glibc's view of the heap (mallinfo2) through gdb: in use, free, free chunks."""
    out = subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "p mallinfo2()"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, timeout=60).stdout
    fields = {}
    for key in ("arena", "ordblks", "uordblks", "fordblks"):
        m = re.search(rf"\b{key} = (\d+)", out)
        if m:
            fields[key] = int(m.group(1))
    return fields


def descendant_running(root, binary):
    """The PID of a descendant of ROOT that runs BINARY (the scheduler under a wrapper), or None."""
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            if os.path.realpath(f"/proc/{pid}/exe") == os.path.realpath(binary):
                return pid
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return None


def one_scheduler(kind, binary, args, out):
    run = chaos.Run("rss", kind, binary, True, 1, os.path.join(REPO, "build", "rss-logs"))
    try:
        run.add_nodes("n", args.nodes, cpu="64", memory="256Gi")
        s = chaos.SchedulerProcess(kind, args.wrapper.split() + chaos.scheduler_args(binary, run.kubeconfig, False),
                                   os.path.join(run.cp.logs, f"{kind}.log"))
        run.schedulers.append(s)
        pid = s.pid
        if args.wrapper:  # sample the scheduler the wrapper started, not the wrapper
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and pid == s.pid:
                pid = descendant_running(s.pid, binary) or s.pid
                time.sleep(0.1)
        samples = []

        def sample(phase, rnd):
            rec = {"scheduler": kind, "phase": phase, "round": rnd, "t": round(time.monotonic() - run.t0, 1),
                   "rss_kib": status_kib(pid, "VmRSS"), "hwm_kib": status_kib(pid, "VmHWM")}
            if args.mallinfo and kind == "ours":
                rec.update(mallinfo(pid))
            samples.append(rec)
            out.write(json.dumps(rec) + "\n")
            out.flush()
            heap = (f"  heap in use {rec['uordblks'] / 2 ** 20:6.1f} MiB, free {rec['fordblks'] / 2 ** 20:6.1f} MiB "
                    f"in {rec['ordblks']} chunks" if "uordblks" in rec else "")
            print(f"{kind:8} {phase:6} round {rnd:3}  t {rec['t']:7.1f} s  RSS {rec['rss_kib'] / 1024:7.1f} MiB"
                  f"  peak {rec['hwm_kib'] / 1024:7.1f} MiB{heap}", flush=True)

        sample("start", 0)
        for rnd in range(1, args.rounds + 1):
            prefix = f"r{rnd}"
            run.stream(args.pods, 400, prefix=prefix, background=False)
            run.wait_bound(args.pods, timeout=300)
            status, body = run.api.request("DELETE", f"/api/v1/namespaces/{chaos.NAMESPACE}/pods",
                                           {"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0})
            if status != 200:
                raise chaos.HarnessError(f"deletecollection: HTTP {status}")
            deadline = time.monotonic() + 120
            while run.watcher.summary()["bound"] + run.watcher.summary()["pending"] and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(3)  # the scheduler's own watch, a moment behind ours
            sample("round", rnd)
        for i in range(args.idle // 30):
            time.sleep(30)
            sample("idle", args.rounds)
        if pid != s.pid:
            # Under a wrapper: end the scheduler itself, so the wrapper writes its data; SIGKILL, so
            # that no destructor runs and a heap profiler reports what was live as "leaked".
            os.kill(pid, signal.SIGKILL)
            s.proc.wait(60)
        return samples
    finally:
        run.close(keep_logs=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--pods", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=100)
    parser.add_argument("--idle", type=int, default=480)
    parser.add_argument("--schedulers", default="ours,upstream")
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--out", default="")
    parser.add_argument("--mallinfo", action="store_true", help="also glibc's heap figures at each sample (gdb)")
    parser.add_argument("--wrapper", default="", help='a command the scheduler runs under, e.g. "heaptrack -o FILE"')
    args = parser.parse_args()
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"
    out = open(args.out, "w") if args.out else open(os.devnull, "w")
    for kind in [k for k in args.schedulers.split(",") if k]:
        binary = (os.path.join(os.path.abspath(args.build_dir), "scheduler", "kube-scheduler-cpp") if kind == "ours"
                  else chaos.upstream_binary()[0])
        one_scheduler(kind, binary, args, out)
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
