#!/usr/bin/env python3
"""The chaos suite (issue #44): fault scenarios on the real control plane, with invariants watched.

  chaos.py [--short] [--schedulers ours,upstream] [--scenarios NAME,...] [--rounds N]
           [--build-dir build] [--out DIR] [--list]

Every scenario runs once per scheduler (rounds interleaved: scenario by scenario, ours then
upstream), each on a control plane of its own (tests/controlplane/start.sh: etcd + kube-apiserver
on 127.0.0.1, fake nodes, no kubelet). While pods stream in and the fault happens, a watcher
(tests/chaos/invariants.py) follows every pod and node through its own list + watch and checks:

  lost          a pod still pending at the end although it fits a live, schedulable, untainted node
                (cpu, memory, pod count; the scenarios' pods ask for nothing else), after the
                scheduler had SETTLE seconds to place it;
  double-bound  a pod with two Scheduled events, or seen on two nodes under one UID;
  overcommit    a node whose bound pods ask for more cpu, memory or pods than it has, at ANY moment
                of the watched history (checked at every event, not only at the end);
  gone-node     a pod bound to a node deleted, cordoned or NoSchedule-tainted more than
                GONE_NODE_GRACE seconds before the binding was seen;
  crashed       a scheduler process that died of a signal we did not send (SIGSEGV, SIGABRT ...) or
                exited without saying why; an exit with a message (a leader that lost its Lease
                exits 1, as upstream's does) is listed, and the replica is started again as a
                kubelet would.

The reference is upstream kube-scheduler of tests/controlplane/versions.env, through the same
scenarios. Exit status 1 when a scenario could not run, or when kube-scheduler-cpp broke an
invariant; upstream's counts are reported, never failed on. Results: a table on stdout and, with
--out, results.jsonl + README.md there. Only processes started here are signalled, by PID.
"""
import argparse
import datetime
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "controlplane"))
sys.path.insert(0, HERE)
import nodes as cp_nodes  # noqa: E402  (tests/controlplane/nodes.py: the loopback API client)
from invariants import Watcher, parse_quantity  # noqa: E402

NAMESPACE = "chaos"
POD_CPU = ["100m", "200m", "250m", "500m"]
POD_MEMORY = ["64Mi", "128Mi", "256Mi"]
NODE_CPU, NODE_MEMORY = "2", "4Gi"
GONE_NODE_GRACE = 2.0


def log(message):
    print(f"[chaos {time.strftime('%H:%M:%S')}] {message}", flush=True)


class HarnessError(Exception):
    """The scenario could not run (the control plane or a scheduler did not come up): not a verdict."""


# --- the control plane -------------------------------------------------------------------------------
class ControlPlane:
    def __init__(self):
        out = subprocess.run([os.path.join(REPO, "tests/controlplane/start.sh"), "--owner", str(os.getpid())],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if out.returncode != 0:
            raise HarnessError(f"start.sh failed: {out.stderr.strip().splitlines()[-1:]}")
        self.dir = out.stdout.strip()
        self.env = cp_nodes.read_env(os.path.join(self.dir, "env"))
        pki = self.env["PKI_DIR"]
        self.api = cp_nodes.Api(self.env["APISERVER_URL"], os.path.join(pki, "ca.crt"),
                                os.path.join(pki, "admin.crt"), os.path.join(pki, "admin.key"))
        self.logs = os.path.join(self.dir, "logs")

    def pid_of(self, component):
        with open(os.path.join(self.dir, "pids")) as f:
            for line in f:
                name, pid, exe = line.split()
                if name == component and os.path.realpath(f"/proc/{pid}/exe") == exe:
                    return int(pid)
        raise HarnessError(f"{component} is not running")

    def signal(self, component, sig):
        os.kill(self.pid_of(component), sig)

    def restart(self, component, down_seconds, kill=False):
        cmd = [os.path.join(REPO, "tests/controlplane/restart-apiserver.sh"), "--component", component,
               "--down-seconds", str(down_seconds)] + (["--kill"] if kill else []) + [self.dir]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if out.returncode != 0:
            raise HarnessError(f"restarting {component}: {out.stdout.strip().splitlines()[-1:]}")

    def stop(self, keep_logs_in=None):
        if keep_logs_in:
            shutil.copytree(self.logs, keep_logs_in, dirs_exist_ok=True)
        subprocess.run([os.path.join(REPO, "tests/controlplane/stop.sh"), self.dir],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# --- schedulers --------------------------------------------------------------------------------------
def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def scheduler_args(binary, kubeconfig, leader_elect):
    """The same flags for both schedulers (upstream's names; QPS raised so the client is not the limit)."""
    args = [binary, f"--kubeconfig={kubeconfig}", "--bind-address=127.0.0.1", f"--secure-port={free_port()}",
            "--kube-api-qps=200", "--kube-api-burst=400", "--v=2"]
    if leader_elect:
        return args + ["--leader-elect=true", "--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s",
                       "--leader-elect-retry-period=500ms"]
    return args + ["--leader-elect=false"]


class SchedulerProcess:
    """One scheduler replica we started; knows which signals were ours."""

    def __init__(self, kind, args, log_path, hostname=None):
        self.kind, self.log_path, self.hostname = kind, log_path, hostname
        if hostname:  # a hostname of its own, which the Lease's holderIdentity carries
            args = ["unshare", "--uts", "bash", "-c", 'hostname "$1" && shift && exec "$@"', "_", hostname] + args
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.signals_sent = set()
        self.stopped = False   # SIGSTOPped by us
        self.judged = False    # its exit already recorded
        self.start_args = None  # how Run.start_scheduler started it (None: not to be started again)

    @property
    def pid(self):
        return self.proc.pid

    def send(self, sig):
        self.signals_sent.add(sig)
        self.stopped = sig == signal.SIGSTOP
        self.proc.send_signal(sig)

    def alive(self):
        return self.proc.poll() is None

    def last_lines(self, n=3):
        try:
            with open(self.log_path, "rb") as f:
                f.seek(max(0, os.path.getsize(self.log_path) - 4096))
                return [l.decode(errors="replace") for l in f.read().splitlines()[-n:]]
        except OSError:
            return []

    def verdict(self):
        """None while running or after a signal of ours; else ('crashed'|'exited', description)."""
        rc = self.proc.poll()
        if rc is None:
            return None
        if rc < 0:
            if -rc in self.signals_sent:
                return None
            return ("crashed", f"{self.kind} pid {self.pid} died of signal {-rc}: {self.last_lines()}")
        lines = self.last_lines()
        if rc == 0 and signal.SIGTERM in self.signals_sent:
            return None
        # An exit that says why (the last line names an error) is an exit, not a crash.
        if rc != 0 and lines and any(w in lines[-1].lower() for w in ("error", "lost", "fail", "unable")):
            return ("exited", f"{self.kind} pid {self.pid} exited {rc}: {lines[-1].strip()[:200]}")
        return ("crashed", f"{self.kind} pid {self.pid} exited {rc} without a clear message: {lines}")

    def stop(self):
        if self.alive():
            if self.stopped:
                self.send(signal.SIGCONT)
            self.send(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.send(signal.SIGKILL)
                self.proc.wait(5)
        self.log.close()


class FreezingProxy:
    """tests/integration/freezing_proxy.py between a scheduler and kube-apiserver, and a kubeconfig
    for the scheduler that goes through it."""

    def __init__(self, run):
        self.port = free_port()
        self.log_path = os.path.join(run.cp.logs, "proxy.log")
        self.log = open(self.log_path, "ab")
        api = run.cp.env["APISERVER_URL"]
        self.proc = subprocess.Popen([sys.executable, os.path.join(REPO, "tests/integration/freezing_proxy.py"),
                                      "--listen", str(self.port), "--target", api[len("https://"):]],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_for("listening")
        with open(run.kubeconfig) as f:
            text = f.read().replace(api, f"https://127.0.0.1:{self.port}")
        self.kubeconfig = os.path.join(run.cp.dir, "proxied.kubeconfig")
        with open(self.kubeconfig, "w") as f:
            f.write(text)
        os.chmod(self.kubeconfig, 0o600)

    def _wait_for(self, word, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as f:
                if word.encode() in f.read():
                    return
            time.sleep(0.05)
        raise HarnessError(f"freezing_proxy.py did not print {word!r}")

    def freeze(self):
        self.proc.send_signal(signal.SIGUSR1)
        self._wait_for("froze")

    def cut(self):
        self.proc.send_signal(signal.SIGUSR2)
        self._wait_for("cut")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)
        self.log.close()


# --- one run: a scenario under one scheduler ------------------------------------------------------------
class Run:
    def __init__(self, scenario, kind, binary, short, seed, log_dir):
        self.scenario, self.kind, self.binary, self.short = scenario, kind, binary, short
        self.rng = random.Random(seed)
        self.log_dir = log_dir
        self.cp = ControlPlane()
        self.api = self.cp.api
        self.schedulers = []      # every SchedulerProcess started, alive or not
        self.events = []          # (seconds since start, what) for the report
        self.t0 = time.monotonic()
        self.kubeconfig = self.cp.env["KUBECONFIG_SCHEDULER"]
        self.created = 0
        self.stream_threads = []
        self.cleanups = []        # callables run by close(), before the schedulers stop
        self.process_lock = threading.RLock()
        self.exits = []           # replicas that exited with a message (and were started again)
        self.closing = False
        self.kubelet = threading.Thread(target=self._kubelet, daemon=True)
        status, body = self.api.request("POST", "/api/v1/namespaces",
                                        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}})
        if status != 201:
            raise HarnessError(f"creating namespace: HTTP {status}: {body.get('message')}")
        self.watcher = Watcher(self.api, NAMESPACE, GONE_NODE_GRACE)

    def note(self, what):
        self.events.append((round(time.monotonic() - self.t0, 1), what))
        log(f"  {self.scenario}/{self.kind}: {what}")

    # nodes and pods
    def add_nodes(self, prefix, count, start=0, cpu=NODE_CPU, memory=NODE_MEMORY):
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        ns = argparse.Namespace(prefix=prefix, zones=0, label=[], cpu=cpu, memory=memory, pods="110",
                                ephemeral_storage="", resource=[], taint=[])
        for i in range(start, start + count):
            status, body = self.api.request("POST", "/api/v1/nodes", cp_nodes.node_object(f"{prefix}-{i}", ns, i, now))
            if status != 201:
                raise HarnessError(f"creating node {prefix}-{i}: HTTP {status}: {body.get('message')}")

    def pod_object(self, name, cpu=None, memory=None, node=None):
        spec = {"schedulerName": "default-scheduler", "terminationGracePeriodSeconds": 0,
                "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10",
                                "resources": {"requests": {"cpu": cpu or self.rng.choice(POD_CPU),
                                                           "memory": memory or self.rng.choice(POD_MEMORY)}}}]}
        if node:
            spec["nodeName"] = node
        return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": NAMESPACE,
                                                                 "labels": {"app": "chaos"}}, "spec": spec}

    def create_pod(self, name, **kw):
        status, body = self.api.request("POST", f"/api/v1/namespaces/{NAMESPACE}/pods", self.pod_object(name, **kw),
                                        retries=30)
        if status not in (201, 409):
            raise HarnessError(f"creating pod {name}: HTTP {status}: {body.get('message')}")
        return body

    def delete_pod(self, name):
        status, body = self.api.request("DELETE", f"/api/v1/namespaces/{NAMESPACE}/pods/{name}",
                                        {"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0},
                                        retries=30)
        if status not in (200, 404):
            raise HarnessError(f"deleting pod {name}: HTTP {status}: {body.get('message')}")

    def stream(self, count, rate, prefix="p", start=0, background=True):
        """Creates COUNT pods at about RATE per second (one client thread), in the background."""
        def run():
            t = time.monotonic()
            for i in range(start, start + count):
                self.create_pod(f"{prefix}-{i}")
                self.created += 1
                t += 1.0 / rate
                time.sleep(max(0.0, t - time.monotonic()))
        if not background:
            run()
            return
        th = threading.Thread(target=run, daemon=True)
        th.start()
        self.stream_threads.append(th)

    def wait_streams(self, timeout=300):
        for th in self.stream_threads:
            th.join(timeout)
            if th.is_alive():
                raise HarnessError("the pod stream did not finish")
        self.stream_threads = []

    def wait_bound(self, n, timeout=120):
        deadline = time.monotonic() + timeout
        while self.watcher.bound_count() < n:
            if time.monotonic() > deadline:
                raise HarnessError(f"{self.watcher.bound_count()} of the {n} pods waited for were bound "
                                   f"within {timeout} s (is the scheduler working?)")
            time.sleep(0.1)

    # schedulers
    def start_scheduler(self, leader_elect=False, hostname=None, kubeconfig=None):
        name = hostname or f"{self.kind}-{len(self.schedulers)}"
        s = SchedulerProcess(self.kind, scheduler_args(self.binary, kubeconfig or self.kubeconfig, leader_elect),
                             os.path.join(self.cp.logs, f"{name}.log"), hostname)
        s.start_args = (leader_elect, hostname, kubeconfig)
        with self.process_lock:
            self.schedulers.append(s)
        if not self.kubelet.is_alive():
            self.kubelet.start()
        return s

    def replica(self, hostname):
        """The newest process started for HOSTNAME (the kubelet may have started it again)."""
        with self.process_lock:
            return [s for s in self.schedulers if s.hostname == hostname][-1]

    def live(self):
        return [s for s in self.schedulers if s.alive()]

    def check_processes(self):
        """Records every replica that stopped on its own (a crash is a violation, an exit with a
        message is not) and starts it again after 1 s, as the kubelet does for a static pod."""
        with self.process_lock:
            ended = []
            for s in self.schedulers:
                v = s.verdict()
                if v and not s.judged:
                    s.judged = True
                    self.note(f"{v[0]}: {v[1]}")
                    if v[0] == "crashed":
                        self.watcher.violation("crashed", v[1])
                    else:
                        self.exits.append(v[1])
                    ended.append(s)
        for s in ended:
            if not self.closing and s.start_args is not None:
                time.sleep(1)
                self.start_scheduler(*s.start_args)
                self.note(f"started {s.hostname or s.kind} again")

    def _kubelet(self):
        while not self.closing:
            self.check_processes()
            time.sleep(0.5)

    def wait_quiet(self, seconds):
        """Waits until no pending pod fits anywhere (nothing left for the scheduler to bind)."""
        deadline = time.monotonic() + seconds
        while self.watcher.pending_that_fit() and time.monotonic() < deadline:
            time.sleep(0.2)

    def settle(self, seconds):
        """Waits until no pending pod fits anywhere (or SECONDS), checking the replicas meanwhile."""
        deadline = time.monotonic() + seconds
        while True:
            self.check_processes()
            fitting = self.watcher.pending_that_fit()
            if not fitting:
                return
            if time.monotonic() > deadline:
                for name, node in fitting[:5]:
                    self.watcher.violation("lost", f"pod {name} pending although it fits node {node}")
                if len(fitting) > 5:
                    self.watcher.violation("lost", f"... and {len(fitting) - 5} more pending pods that fit", count=len(fitting) - 5)
                return
            time.sleep(0.5)

    def finish(self, settle_seconds):
        self.wait_streams()
        self.settle(settle_seconds)
        self.check_processes()
        self.watcher.check_events()
        result = self.watcher.summary()
        result.update(scenario=self.scenario, scheduler=self.kind, created=self.created, exits=self.exits,
                      seconds=round(time.monotonic() - self.t0, 1), timeline=self.events,
                      alive=len(self.live()))
        return result

    def close(self, keep_logs):
        self.closing = True
        if self.kubelet.is_alive():
            self.kubelet.join(10)
        self.watcher.stop()
        for c in self.cleanups:
            c()
        for s in self.schedulers:
            s.stop()
        target = None
        if keep_logs:
            target = os.path.join(self.log_dir, f"{self.scenario}-{self.kind}")
        self.cp.stop(keep_logs_in=target)


# --- scenarios ---------------------------------------------------------------------------------------
# Each fills nodes of 2 cpu / 4 Gi with pods of 100-500m and 64-256 Mi to about 110 % of the cpu,
# so that nodes end up full (where overcommit would show) and some pods legitimately stay pending.
# The stream lasts about 8 s (short) or 15 s, so that the fault lands while pods are being bound.
def sizes(run):
    nodes = 8 if run.short else 30
    pods = int(nodes * 2000 * 1.1 / 262)  # 262m: the mean request
    return nodes, pods, pods / (8 if run.short else 15)


def wait_created(run, n, timeout=120):
    deadline = time.monotonic() + timeout
    while run.created < n:
        if time.monotonic() > deadline:
            raise HarnessError(f"only {run.created} of {n} pods created within {timeout} s")
        time.sleep(0.05)


def scenario_kill_restart(run):
    """SIGKILL the scheduler three times while it binds a stream of pods; start it again each time."""
    nodes, pods, rate = sizes(run)
    run.add_nodes("n", nodes)
    s = run.start_scheduler()
    run.stream(pods, rate)
    for frac in (0.25, 0.5, 0.75):
        wait_created(run, int(pods * frac))
        run.wait_bound(run.watcher.bound_count() + 1)  # the new replica is binding
        s.send(signal.SIGKILL)
        run.note(f"SIGKILL pid {s.pid} at {run.watcher.bound_count()} bound")
        time.sleep(0.5)
        s = run.start_scheduler()
    return run.finish(60)


def stream_under_way(run):
    """Nodes, one scheduler and the pod stream started; returns the scheduler once a quarter is bound."""
    nodes, pods, rate = sizes(run)
    run.add_nodes("n", nodes)
    s = run.start_scheduler()
    run.stream(pods, rate)
    run.wait_bound(pods // 4)
    return s


def paused(run, what, stop, resume, seconds):
    """Calls stop(), waits SECONDS, calls resume(), noting both."""
    stop()
    run.note(f"{what} SIGSTOP for {seconds} s at {run.watcher.bound_count()} bound")
    time.sleep(seconds)
    resume()
    run.note(f"{what} SIGCONT")


def scenario_sigstop(run):
    """SIGSTOP the scheduler mid-stream (its watches and bindings frozen), then SIGCONT."""
    s = stream_under_way(run)
    paused(run, "scheduler", lambda: s.send(signal.SIGSTOP), lambda: s.send(signal.SIGCONT), 8 if run.short else 30)
    return run.finish(60)


def scenario_apiserver_freeze(run):
    """SIGSTOP kube-apiserver mid-stream (every connection hangs), then SIGCONT."""
    stream_under_way(run)
    paused(run, "kube-apiserver", lambda: run.cp.signal("kube-apiserver", signal.SIGSTOP),
           lambda: run.cp.signal("kube-apiserver", signal.SIGCONT), 8 if run.short else 20)
    return run.finish(60)


def scenario_apiserver_restart(run):
    """Restart kube-apiserver mid-stream, 3 s down: watches end, re-watches get 410, informers relist."""
    stream_under_way(run)
    run.note(f"kube-apiserver restart (3 s down) at {run.watcher.bound_count()} bound")
    run.cp.restart("kube-apiserver", 3)
    run.note("kube-apiserver ready again")
    return run.finish(60)


def scenario_etcd_kill(run):
    """SIGKILL etcd mid-stream, 5 s down, start it again on the same data."""
    stream_under_way(run)
    run.note(f"etcd SIGKILL (5 s down) at {run.watcher.bound_count()} bound")
    run.cp.restart("etcd", 5, kill=True)
    run.note("etcd ready again")
    return run.finish(90)


def scenario_replace_across_relist(run):
    """Same-name replacements the scheduler sees only through a relist (issue #44 items 1 and 2).

    The scheduler reaches kube-apiserver through freezing_proxy.py. Nodes filled to ~70 %; its
    connections are frozen; bound pods are deleted and re-created under the same name (new UID):
    half already bound to another node (as another scheduler would), half pending again;
    kube-apiserver restarts (its watch cache forgets the old resourceVersions) and the frozen
    connections are cut, discarding the events they held back: the scheduler's re-watch gets 410
    and relists, seeing each replacement only as one update from UID A to UID B. Then the stream
    fills the nodes: a scheduler that kept the old pods (or missed the new ones) overcommits a node
    or leaves fitting pods pending."""
    nodes, pods, rate = sizes(run)
    run.add_nodes("n", nodes)
    proxy = FreezingProxy(run)
    run.cleanups.append(proxy.stop)
    run.start_scheduler(kubeconfig=proxy.kubeconfig)
    first = int(pods * 0.7)
    run.stream(first, 60, background=False)
    run.wait_bound(int(first * 0.95))
    run.wait_quiet(30)  # no binding in flight: a pod bound below by hand must not race one
    bound = run.watcher.bound_pods()
    proxy.freeze()
    run.note(f"froze the scheduler's connections at {len(bound)} bound")
    victims = run.rng.sample(sorted(bound), min(len(bound), 12 if run.short else 30))
    moved = 0
    for i, name in enumerate(victims):
        run.delete_pod(name)
        if i % 2 == 0:
            target = run.watcher.node_with_room("500m", "256Mi", exclude=bound[name])
            if target:
                run.create_pod(name, cpu="500m", memory="256Mi", node=target)
                moved += 1
                continue
        run.create_pod(name)
    run.note(f"replaced {len(victims)} bound pods under the same name ({moved} bound to another node, "
             f"{len(victims) - moved} pending)")
    run.cp.restart("kube-apiserver", 1)
    proxy.cut()
    run.note("kube-apiserver restarted, frozen connections cut: the scheduler's re-watch must relist")
    run.stream(pods - first, rate, start=first)
    return run.finish(60)


def scenario_delete_while_binding(run):
    """Pods deleted 0-300 ms after creation, while being scheduled and bound, with a kube-apiserver
    restart in the middle; then a second wave that fits only if no deleted pod is still counted."""
    nodes, pods, rate = sizes(run)
    run.add_nodes("n", nodes)
    run.start_scheduler()
    deleted = [0]

    def deleter(name):
        time.sleep(run.rng.uniform(0, 0.3))
        run.delete_pod(name)
        deleted[0] += 1

    def stream_and_delete():
        for i in range(pods):
            name = f"d-{i}"
            run.create_pod(name)
            run.created += 1
            if run.rng.random() < 0.4:
                threading.Thread(target=deleter, args=(name,), daemon=True).start()
            time.sleep(1 / rate)
    th = threading.Thread(target=stream_and_delete, daemon=True)
    th.start()
    run.stream_threads.append(th)
    run.wait_bound(pods // 5)
    run.note(f"kube-apiserver restart (2 s down) at {run.watcher.bound_count()} bound")
    run.cp.restart("kube-apiserver", 2)
    run.wait_streams()
    run.note(f"{deleted[0]} pods deleted while being scheduled")
    run.stream(pods // 2, rate, prefix="w")
    return run.finish(60)


def scenario_node_churn(run):
    """Nodes deleted, cordoned, tainted NoSchedule, uncordoned and added while pods stream in."""
    nodes, pods, rate = sizes(run)
    run.add_nodes("n", nodes)
    run.start_scheduler()
    run.stream(int(pods * 1.2), rate)
    added = [nodes]
    ops = {"delete": 0, "cordon": 0, "taint": 0, "uncordon": 0, "add": 0}

    def churn():
        while any(th.is_alive() for th in run.stream_threads):
            names = run.watcher.node_names()
            op = run.rng.choice(["delete", "cordon", "taint", "uncordon", "add", "add"])
            name = run.rng.choice(names) if names else None
            if op == "add" or not name:
                run.add_nodes("n", 1, start=added[0])
                added[0] += 1
                op = "add"
            elif op == "delete":
                run.api.request("DELETE", f"/api/v1/nodes/{name}")
            else:
                patch = {"cordon": {"spec": {"unschedulable": True}},
                         "uncordon": {"spec": {"unschedulable": None, "taints": None}},
                         "taint": {"spec": {"taints": [{"key": "chaos", "value": "churn", "effect": "NoSchedule"}]}}}[op]
                run.api.request("PATCH", f"/api/v1/nodes/{name}", patch,
                                content_type="application/merge-patch+json")
            ops[op] += 1
            time.sleep(0.5)
    th = threading.Thread(target=churn, daemon=True)
    th.start()
    run.wait_streams()
    th.join(30)
    run.note("node operations: " + ", ".join(f"{k} {v}" for k, v in ops.items()))
    return run.finish(60)


def scenario_leader_failover(run):
    """Three replicas with leader election (lease 4 s): the leader SIGKILLed mid-stream, then the next
    leader SIGSTOPped past its lease and resumed after a successor took over (its late bindings must
    fail with 409, and it must stop leading). Replicas that exit are started again, as a kubelet would."""
    nodes, pods, rate = sizes(run)
    run.add_nodes("n", nodes)
    for h in ("chaos-a", "chaos-b", "chaos-c"):
        run.start_scheduler(leader_elect=True, hostname=h)

    def leader():
        status, body = run.api.request("GET", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler")
        if status != 200:
            return None
        return (body.get("spec") or {}).get("holderIdentity") or None

    def wait_leader(not_this=None, timeout=60):
        """The holder identity ("<hostname>_<uuid>", a new uuid per process) once another holds it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            h = leader()
            if h and h != not_this:
                return h
            time.sleep(0.2)
        raise HarnessError(f"no replica other than {not_this} became leader within {timeout} s")

    def host(identity):
        return identity.split("_")[0]

    first = wait_leader()
    run.note(f"leader {first}")
    run.stream(pods, rate)
    run.wait_bound(pods // 4)
    run.replica(host(first)).send(signal.SIGKILL)
    run.note(f"SIGKILL leader {host(first)} at {run.watcher.bound_count()} bound")
    run.start_scheduler(leader_elect=True, hostname=host(first))
    second = wait_leader(not_this=first)
    run.note(f"new leader {second}")
    run.wait_bound(pods // 2)
    stopped = run.replica(host(second))
    stopped.send(signal.SIGSTOP)
    run.note(f"SIGSTOP leader {host(second)} at {run.watcher.bound_count()} bound")
    third = wait_leader(not_this=second)
    run.note(f"new leader {third}; resuming {host(second)} in 2 s")
    time.sleep(2)
    stopped.send(signal.SIGCONT)
    # The resumed replica finds its Lease taken: it must stop leading (upstream exits 1 with
    # "Leaderelection lost"; the kubelet thread starts it again) within its renew deadline.
    deadline = time.monotonic() + 15
    while stopped.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    run.note(f"resumed {host(second)}: " + ("still running" if stopped.alive() else
                                           f"exited {stopped.proc.returncode}: {stopped.last_lines(1)}"))
    return run.finish(60)


def scenario_silent_partition(run):
    """The scheduler reaches kube-apiserver through tests/integration/freezing_proxy.py; mid-stream
    every connection it holds is frozen (no FIN, no RST): it must notice and go on within SETTLE."""
    nodes, pods, rate = sizes(run)
    run.add_nodes("n", nodes)
    proxy = FreezingProxy(run)
    run.cleanups.append(proxy.stop)
    run.start_scheduler(kubeconfig=proxy.kubeconfig)
    run.stream(pods, pods / 60)  # a minute of pods, so that most arrive after the freeze
    run.wait_bound(pods // 10)
    proxy.freeze()
    run.note(f"froze every connection at {run.watcher.bound_count()} bound")
    return run.finish(180)


def self_test(api_run):
    """Proves the invariants can fail: with no scheduler, makes one violation of each kind by hand and
    expects the watcher to report each (a detector that cannot fire would pass every scenario)."""
    run = api_run
    run.add_nodes("n", 2)
    run.create_pod("over-1", cpu="1500m", memory="64Mi", node="n-0")
    run.create_pod("over-2", cpu="1000m", memory="64Mi", node="n-0")        # overcommit: 2500m of 2000m
    run.api.request("DELETE", "/api/v1/nodes/n-1")
    time.sleep(GONE_NODE_GRACE + 1)
    run.create_pod("gone", cpu="100m", memory="64Mi", node="n-1")           # gone-node
    run.add_nodes("m", 1)
    run.create_pod("pending", cpu="100m", memory="64Mi")                    # lost: fits m-0, no scheduler
    status, pod = run.api.request("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/over-1")
    for i in range(2):                                                      # double-bound
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        run.api.request("POST", f"/apis/events.k8s.io/v1/namespaces/{NAMESPACE}/events", {
            "apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": f"over-1.selftest{i}", "namespace": NAMESPACE}, "eventTime": now,
            "reason": "Scheduled", "action": "Binding", "type": "Normal", "note": "self-test",
            "reportingController": "chaos-self-test", "reportingInstance": "chaos-self-test",
            "regarding": {"kind": "Pod", "namespace": NAMESPACE, "name": "over-1", "uid": pod["metadata"]["uid"]}})
    crash = SchedulerProcess("self-test", [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"],
                             os.path.join(run.cp.logs, "crash.log"))                # crashed
    crash.proc.wait(10)
    run.schedulers.append(crash)
    return run.finish(3)


SCENARIOS = {
    "kill-restart": (scenario_kill_restart, True),
    "sigstop": (scenario_sigstop, True),
    "apiserver-freeze": (scenario_apiserver_freeze, False),
    "apiserver-restart": (scenario_apiserver_restart, True),
    "etcd-kill": (scenario_etcd_kill, False),
    "replace-across-relist": (scenario_replace_across_relist, True),
    "delete-while-binding": (scenario_delete_while_binding, True),
    "node-churn": (scenario_node_churn, True),
    "leader-failover": (scenario_leader_failover, False),
    "silent-partition": (scenario_silent_partition, False),
}  # name: (function, in the short suite)
COLUMNS = ["lost", "double-bound", "overcommit", "gone-node", "crashed"]


def upstream_binary():
    versions = cp_nodes.read_env(os.path.join(REPO, "tests/controlplane/versions.env"))
    cache = os.environ.get("KSCHED_CACHE", os.path.expanduser("~/.cache/kube-scheduler-cpp"))
    return os.path.join(cache, "k8s-bins", f"v{versions['K8S_VERSION']}-etcd{versions['ETCD_VERSION']}",
                        "kube-scheduler"), versions["K8S_VERSION"]


def table(results):
    lines = ["| scenario | scheduler | pods | bound | pending (legit.) | " + " | ".join(COLUMNS)
             + " | exits (restarted) | seconds |",
             "|---|---|---:|---:|---:|" + "---:|" * len(COLUMNS) + "---:|---:|"]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['scenario']} | {r['scheduler']} | harness error: {r['error']} |")
            continue
        lines.append(f"| {r['scenario']} | {r['scheduler']} | {r['created']} | {r['bound']} | {r['pending']} | "
                     + " | ".join(str(r['counts'].get(c, 0)) for c in COLUMNS)
                     + f" | {len(r['exits'])} | {r['seconds']} |")
    return "\n".join(lines)


def write_readme(out, results, names, kinds, args):
    _, version = upstream_binary()
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                            text=True).stdout.strip()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# The chaos suite: results",
        "",
        f"Generated by `tests/chaos/chaos.py` ({'--short' if args.short else 'full'}; `make chaos`) on {when}, "
        f"commit {commit}, against upstream kube-scheduler v{version}; {args.rounds} round(s), scenarios run one "
        f"after the other, {' then '.join(kinds)} for each. Each run has a control plane of its own (etcd + "
        "kube-apiserver on 127.0.0.1, fake nodes of 2 cpu / 4 Gi, no kubelet) and a watcher that checks the "
        "invariants at every pod and node event; the pods (100-500m cpu, 64-256 Mi) ask for about 110 % of "
        "the cpu, so nodes fill up and some pods legitimately stay pending. Method, invariants and "
        "scenarios: [docs/chaos.md](../chaos.md).",
        "",
        "Every kind of violation is first made by hand with no scheduler (the self-test) and must be "
        "detected, so a zero below is a measurement, not a detector that cannot fire.",
        "",
        table(results),
        "",
        "`pending (legit.)`: pods left pending that fit no live, schedulable, untainted node. "
        "`exits (restarted)`: replicas that exited with a message (a leader that lost its Lease exits 1; "
        "upstream exits 1 when a relist shows a pod on another node than its cache has) and were started "
        "again, as the kubelet does for a static pod.",
        "",
        "## Timelines",
        "",
    ]
    for r in results:
        if "timeline" in r:
            lines.append(f"- **{r['scenario']} / {r['scheduler']}**: " + "; ".join(
                f"{t} s {what}" for t, what in r["timeline"]))
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--short", action="store_true", help="the CI suite: smaller, the short scenarios")
    parser.add_argument("--schedulers", default="ours,upstream")
    parser.add_argument("--scenarios", default="")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--out", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--keep-logs", action="store_true", help="keep every run's logs, not only failed ones")
    args = parser.parse_args()
    if args.list:
        for name, (fn, short) in SCENARIOS.items():
            print(f"{name:24} {'short+full' if short else 'full'}  {fn.__doc__.split(chr(10))[0]}")
        return 0
    names = [n for n in args.scenarios.split(",") if n] or [n for n, (_, s) in SCENARIOS.items() if s or not args.short]
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        print(f"chaos.py: unknown scenario(s) {', '.join(unknown)}; --list shows them", file=sys.stderr)
        return 2
    binaries = {}
    for kind in [k for k in args.schedulers.split(",") if k]:
        if kind == "ours":
            binaries[kind] = os.path.join(os.path.abspath(args.build_dir), "scheduler", "kube-scheduler-cpp")
        elif kind == "upstream":
            binaries[kind], version = upstream_binary()
        else:
            print(f"chaos.py: unknown scheduler {kind!r} (ours, upstream)", file=sys.stderr)
            return 2
        if not os.access(binaries[kind], os.X_OK):
            print(f"chaos.py: missing {binaries[kind]} (make build; tests/controlplane/build.sh)", file=sys.stderr)
            return 1
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"
    out = os.path.abspath(args.out) if args.out else ""
    log_dir = os.path.join(out or os.path.join(os.path.abspath(args.build_dir), "chaos"), "logs")
    os.makedirs(log_dir, exist_ok=True)
    results = []
    log("self-test: one violation of each kind by hand, no scheduler")
    run = None
    try:
        run = Run("self-test", "none", None, True, args.seed, log_dir)
        r = self_test(run)
    except (HarnessError, RuntimeError) as e:
        r = {"scenario": "self-test", "scheduler": "none", "error": str(e)}
    finally:
        if run:
            run.close(keep_logs=False)
    missed = [c for c in COLUMNS if not r.get("counts", {}).get(c)]
    if "error" in r or missed:
        print(f"FAIL self-test: the watcher missed {missed or r.get('error')}: {r.get('violations')}")
        return 1
    detected = ", ".join(f"{c} {r['counts'][c]}" for c in COLUMNS)
    log(f"self-test: every kind detected ({detected})")
    for rnd in range(args.rounds):
        for name in names:
            for kind, binary in binaries.items():
                log(f"{name} / {kind} (round {rnd + 1})")
                run = None
                r = {"scenario": name, "scheduler": kind, "error": "interrupted"}
                try:
                    run = Run(name, kind, binary, args.short, args.seed + rnd, log_dir)
                    r = SCENARIOS[name][0](run)
                except (HarnessError, RuntimeError) as e:
                    r = {"scenario": name, "scheduler": kind, "error": str(e)}
                    log(f"  harness error: {e}")
                finally:
                    if run:  # logs kept for a run that broke an invariant or could not run
                        run.close(keep_logs=args.keep_logs or "error" in r or any(r.get("counts", {}).values()))
                r["round"] = rnd + 1
                results.append(r)
                if "counts" in r:
                    log(f"  {name}/{kind}: " + ", ".join(f"{c} {r['counts'].get(c, 0)}" for c in COLUMNS)
                        + f"; bound {r['bound']} of {r['created']}, {r['seconds']} s")
                    for v in r["violations"][:10]:
                        log(f"    {v}")
    print(table(results))
    if out:
        with open(os.path.join(out, "results.jsonl"), "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
        write_readme(out, results, names, list(binaries), args)
    failed = [r for r in results if "error" in r or (r["scheduler"] == "ours" and any(r["counts"].values()))]
    for r in failed:
        print(f"FAIL {r['scenario']}/{r['scheduler']}: {r.get('error') or r['violations'][:5]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
