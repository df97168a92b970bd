#!/usr/bin/env python3
"""How fast this machine is while a benchmark runs: a fixed unit of work done every `--interval`
seconds, timed in the probe thread's own CPU time (issue #7).

  bench/speed_probe.py [--interval 0.25]

Prints one line per unit, "<seconds since start> <CPU ms the unit took>", flushed, until SIGTERM or
SIGINT; exits 0 then.

Why: on this shared virtual machine the same fixed work takes anything from 2.4 to 5.4 ms of CPU
time from one second to the next (other tenants share the host's cores and caches), and full
benchmark runs an hour apart differ by up to 30 % for every scheduler alike, the null binder too.
Thread CPU time excludes the time the guest kernel gives to other tasks, so the probe reads how much
work a CPU-millisecond buys right now; the time the hypervisor steals from the guest is in
/proc/stat's `steal` column, read by the harness beside it. The unit (an interpreter loop over a
small dict and a SHA-256 of 200 kB: branches, memory and arithmetic, as the API server's and the
schedulers' work) takes about 4 ms, so at the default interval the probe costs under 2 % of one core.
Standard library only.
"""
import argparse
import hashlib
import signal
import sys
import time

_PAYLOAD = b"k8s" * 66_667


def work_unit():
    """The fixed unit of work. Returns a value derived from all of it, so none is optimised away."""
    table = {}
    acc = 0
    for i in range(20_000):
        acc += i * i
        table[i & 1023] = acc
    return acc ^ len(table) ^ hashlib.sha256(_PAYLOAD).digest()[0]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--interval", type=float, default=0.25, help="seconds between units (default 0.25)")
    args = p.parse_args(argv)
    if not args.interval > 0:
        p.error("--interval must be > 0")
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    start = time.monotonic()
    while not stop:
        t0 = time.thread_time_ns()
        work_unit()
        cpu_ms = (time.thread_time_ns() - t0) / 1e6
        print(f"{time.monotonic() - start:.3f} {cpu_ms:.3f}", flush=True)
        # A signal interrupts the sleep; the handler's flag ends the loop.
        time.sleep(args.interval)
    return 0


if __name__ == "__main__":
    sys.exit(main())
