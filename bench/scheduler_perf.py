#!/usr/bin/env python3
"""scheduler_perf-style benchmarks of kube-scheduler-cpp, the upstream kube-scheduler and a null
binder, one after the other on identical fresh real control planes (issue #7).

  bench/scheduler_perf.py [--workloads NAME,...] [--schedulers ours,upstream,null] [--scale F]
                          [--short] [--build-dir build] [--out docs/bench/<UTC timestamp>]
                          [--log-dir DIR] [--v 2] [--creators 4] [--creator-threads 8]
                          [--create-rate PODS_PER_S] [--precreate] [--repeat N] [--no-decision-rate]
                          [--content-type application/json|application/vnd.kubernetes.protobuf] [--verify]
  bench/scheduler_perf.py --list
  bench/scheduler_perf.py --verify-only DIR      (checks the JSON of a finished run)
  bench/scheduler_perf.py --report-only DIR      (its results.md, plots and summary.json again)

For each workload and scheduler: a fresh control plane (tests/controlplane/start.sh --owner <this
process>); the workload's nodes (scheduler_perf's templates/node-default.yaml: 4 CPU, 32Gi, 110 pods,
through tests/controlplane/nodes.py, plus the workload's labels/zones/extended resources); the
scheduler under test started with a KubeSchedulerConfiguration setting clientConnection qps/burst
5000 (as scheduler_perf's client), leader election off, parallelism default; the initial pods
created and scheduled by that scheduler before the measurement, as scheduler_perf's createPods op
does; then the measured pods created as fast as `--creators` processes of `--creator-threads`
keep-alive connections can, while
  - a pod watch (one per run, from this process) records, per measured pod, when it was seen
    without a node (ADDED) and when first seen with spec.nodeName;
  - a ticker samples the number of bound measured pods every second, exactly as scheduler_perf's
    throughputCollector (util.go): ticks before the first bound pod are ignored, the first non-zero
    sample only sets the baseline, intervals with no new pod are merged into the next sample, which
    is recorded (skipped + 1) times; mean, and Perc50/90/95/99 nearest-rank on the sorted samples;
  - the scheduler's CPU seconds (utime + stime of /proc/<pid>/stat, children excluded) over the
    measured phase and over its whole life, and its peak RSS (VmHWM of /proc/<pid>/status).
--create-rate caps the measured pods' creation (50/s by default with --short, so that a smoke run
spans several samples on any machine; none otherwise). --precreate changes the order: initial pods
created already bound (round-robin), measured pods created pending, and only then the scheduler
started, so that pod creation does not compete with it (latency then counts from its start).
Every workload but SchedulingBasic 5000 / 50000 (whose phases last minutes) runs `repeat` times per
scheduler, each time on a fresh control plane: 3 times, and 5 times for PodAntiAffinity and GPU,
whose measured phases last only seconds. One run does not stand for a scheduler on this shared host:
its speed drifts by tens of percent over minutes, and two full runs of single phases differed by up
to 40 % (churn, node affinity). They run round by round (ours, upstream, null, then the next round),
so that a round's schedulers share the same stretch of the host's drifting speed. Their reported
figures are the per-figure medians of the repetitions (lower median for an even count, so that the
throughput and its samples come from one run); results.md adds the goals' ratios taken round by
round and their median; every repetition's JSON is kept.
--repeat N overrides the count for every workload.
Beside each measured phase, bench/speed_probe.py times a fixed unit of work every 0.25 s in its own
CPU time, and /proc/stat gives the busy and stolen CPU time over the phase: this shared host's speed
varies by tens of percent between runs, for every scheduler alike, and `--compare` reports the
figures both as measured and with that change taken out.
The in-process decision rate (BUILD/bench/ksched_decision_rate, no API server) runs 3 times (once
with --short) and reports the median per size; each run is kept as OUT/decision_rate.run<K>.json.
--content-type sets the encoding of every scheduler's per-pod writes (Binding, Event); by default
each uses its own default, protobuf for all three.
Per-pod latency is watch-seen-bound minus watch-seen-created (ms; both stamps from the same watch,
so its delivery lag mostly cancels), reported as p50/p90/p99/max nearest-rank.
Everything started is stopped by PID (the scheduler: SIGTERM, SIGKILL after 15 s; the control
plane: stop.sh DIR).

Schedulers: `ours` = BUILD/scheduler/kube-scheduler-cpp, `upstream` = kube-scheduler v1.37.2 from
the control-plane binaries, both with the same configuration file (upstream's whole default profile, nothing disabled); `null` =
BUILD/bench/ksched-null-binder (round-robin bindings, no scheduling logic, same client settings):
the API server's ceiling on this machine.

Output: OUT/<workload>.<scheduler>.json per (workload, scheduler) (the medians when repeated, with
OUT/<workload>.<scheduler>.run<K>.json per repetition), OUT/decision_rate.json, OUT/summary.json, OUT/
results.md (three schedulers side by side per workload, with the goals of issue #7 as ratios), and
PNG plots when matplotlib is importable (otherwise a note in results.md). Logs of every process go
to --log-dir (default /tmp/ksched-bench-<timestamp>), not into docs/.
Standard library only. Talks to 127.0.0.1 only (nodes.Api refuses anything else).
"""
import argparse
import copy
import datetime
import http.client
import importlib.util
import json
import math
import os
import platform
import shlex
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CONTROLPLANE = os.path.join(REPO, "tests", "controlplane")
PAUSE_IMAGE = "registry.k8s.io/pause:3.10.2"  # scheduler_perf v1.37.2 templates (pod-default and the affinity/spread ones)
INIT_NS, MEASURED_NS, CHURN_NS = "sched-0", "sched-1", "churn"
QPS = BURST = 5000
# Upstream v1 default plugins that kube-scheduler-cpp does not compile in: disabled for every
# scheduler so that the profiles are equivalent (ours logs the same list as "left out"). None since
# DynamicResources was built: both run upstream's whole default profile.
DISABLED_PLUGINS = []


def load_nodes_module():
    spec = importlib.util.spec_from_file_location("nodes", os.path.join(CONTROLPLANE, "nodes.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


nodes_mod = load_nodes_module()


def log(message):
    print(f"[scheduler_perf {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- templates (scheduler_perf test/integration/scheduler_perf/templates, v1.37.2) ----------------

def container(requests, limits=None):
    c = {"name": "pause", "image": PAUSE_IMAGE, "ports": [{"containerPort": 80}],
         "resources": {"requests": dict(requests)}}
    if limits is not None:
        c["resources"]["limits"] = dict(limits)
    return c


DEFAULT_RESOURCES = {"cpu": "100m", "memory": "500Mi"}


def pod_default(name, namespace, _index):
    """templates/pod-default.yaml"""
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
            "spec": {"containers": [container(DEFAULT_RESOURCES, DEFAULT_RESOURCES)]}}


def pod_node_affinity(name, namespace, index):
    """templates/pod-with-node-affinity.yaml"""
    pod = pod_default(name, namespace, index)
    pod["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [
            {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["zone1", "zone2"]}]}]}}}
    return pod


def pod_anti_affinity(name, namespace, index):
    """templates/pod-with-pod-anti-affinity.yaml"""
    pod = pod_default(name, namespace, index)
    pod["metadata"]["labels"] = {"color": "green"}
    pod["spec"]["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"color": "green"}}, "topologyKey": "kubernetes.io/hostname",
         "namespaces": [MEASURED_NS, INIT_NS]}]}}
    return pod


ZONE_LABEL = "topology.kubernetes.io/zone"


def pod_topology_spreading(name, namespace, index):
    """templates/pod-with-topology-spreading.yaml"""
    pod = pod_default(name, namespace, index)
    pod["metadata"]["labels"] = {"color": "blue"}
    pod["spec"]["topologySpreadConstraints"] = [{
        "maxSkew": 5, "topologyKey": ZONE_LABEL, "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": {"matchLabels": {"color": "blue"}}}]
    return pod


GPU_SIZES = (1, 2, 4, 8)


def pod_gpu(name, namespace, index):
    """Not in scheduler_perf: the default pod asking for 1, 2, 4 or 8 nvidia.com/gpu in turn."""
    gpus = str(GPU_SIZES[index % len(GPU_SIZES)])
    requests = dict(DEFAULT_RESOURCES, **{"nvidia.com/gpu": gpus})
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
            "spec": {"containers": [container(requests, requests)]}}


# templates/pod-high-priority-large-cpu.yaml sets `priority: 10` in the pod; scheduler_perf's API
# server runs without the Priority admission plugin, a real one refuses that ("the integer value of
# priority (10) must not be provided in pod spec"), so the pod names a PriorityClass of value 10.
HIGH_PRIORITY_CLASS = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                       "metadata": {"name": "ksched-bench-priority-10"}, "value": 10}


def pod_high_priority_large_cpu(name, namespace, _index):
    """templates/pod-high-priority-large-cpu.yaml: 9 CPUs fit no 4-CPU node; priority 10."""
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
            "spec": {"priorityClassName": HIGH_PRIORITY_CLASS["metadata"]["name"],
                     "containers": [container({"cpu": "9", "memory": "500Mi"})]}}


TEMPLATES = {f.__name__: f for f in (pod_default, pod_node_affinity, pod_anti_affinity,
                                       pod_topology_spreading, pod_gpu, pod_high_priority_large_cpu)}

# --- workloads --------------------------------------------------------------------------------------
# label: the workload's name in the README's headline table. nodes/init/measured: the full sizes
# (scaled by --scale); short: the --short sizes. node_args: extra tests/controlplane/nodes.py
# arguments. churn_interval_ms: an unschedulable pod created every so often during the measured
# phase (scheduler_perf's churn op, mode create). repeat: runs per scheduler, round by round, whose
# per-figure medians are reported (default 1: the 50000-pod workload, whose three phases take 8
# minutes; 5 for the workloads measured for seconds only).
WORKLOADS = {
    "SchedulingBasic_5000Nodes_10000Pods": dict(
        shape="misc/SchedulingBasic 5000Nodes_10000Pods", label="SchedulingBasic", nodes=5000, init=1000, measured=10000,
        short=(20, 10, 300), init_template="pod_default", measured_template="pod_default", repeat=3, node_args=[]),
    "SchedulingBasic_5000Nodes_50000Pods": dict(
        shape="misc/SchedulingBasic 5000Nodes_50000Pods", label="SchedulingBasic", nodes=5000, init=5000, measured=50000,
        short=(20, 10, 600), init_template="pod_default", measured_template="pod_default", node_args=[]),
    "SchedulingNodeAffinity_5000Nodes_10000Pods": dict(
        shape="affinity/SchedulingNodeAffinity 5000Nodes_10000Pods (every node labelled zone1)",
        label="NodeAffinity", nodes=5000, init=5000, measured=10000, short=(20, 10, 300),
        init_template="pod_node_affinity", measured_template="pod_node_affinity",
        repeat=3, node_args=["--label", "topology.kubernetes.io/zone=zone1"]),
    "SchedulingPodAntiAffinity_5000Nodes_1000Pods": dict(
        shape="affinity/SchedulingPodAntiAffinity 5000Nodes (init in sched-0, measured in sched-1)",
        label="PodAntiAffinity", nodes=5000, init=1000, measured=1000, short=(250, 10, 200), repeat=5,
        init_template="pod_anti_affinity", measured_template="pod_anti_affinity", node_args=[]),
    "TopologySpreading_5000Nodes_5000Pods": dict(
        shape="topology_spreading/TopologySpreading 5000Nodes_5000Pods (3 zones)",
        label="TopologySpreading", nodes=5000, init=5000, measured=5000, short=(21, 10, 300),
        init_template="pod_default", measured_template="pod_topology_spreading", repeat=3, node_args=["--zones", "3"]),
    "GPUBinPacking_1000Nodes_1500Pods": dict(
        shape="not in scheduler_perf: nodes with nvidia.com/gpu=8, pods asking 1/2/4/8 GPUs in turn (75% of the "
              "GPUs), NodeResourcesFit MostAllocated with nvidia.com/gpu weight 5 for both schedulers",
        label="GPU bin-packing", nodes=1000, init=100, measured=1500, short=(160, 10, 200), repeat=5,
        init_template="pod_gpu", measured_template="pod_gpu", node_args=["--resource", "nvidia.com/gpu=8"],
        plugin_config="""  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
        - name: nvidia.com/gpu
          weight: 5
"""),
    "Unschedulable_5000Nodes_10000Pods": dict(
        shape="misc/Unschedulable 5kNodes/100Init/10kPods (a 9-CPU priority-10 pod every 200 ms)",
        label="Unschedulable churn", nodes=5000, init=100, measured=10000, short=(20, 5, 300), churn_interval_ms=200,
        init_template="pod_default", measured_template="pod_default", repeat=3, node_args=[]),
}
SCHEDULERS = ("ours", "upstream", "null")


def sizes(workload, args):
    w = WORKLOADS[workload]
    if args.short:
        return w["short"]
    return tuple(max(1, int(round(w[k] * args.scale))) for k in ("nodes", "init", "measured"))


# --- pod creation (subprocesses: the GIL would cap one process) --------------------------------------

def create_pods_main(argv):
    """`_create` sub-command: create pods [start, start+count) of a template; prints one JSON line."""
    p = argparse.ArgumentParser()
    for flag in ("--env", "--namespace", "--template", "--prefix"):
        p.add_argument(flag, required=True)
    p.add_argument("--start", type=int, required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--rate", type=float, default=0, help="pods/s of this process; 0: as fast as it can")
    p.add_argument("--bind-round-robin", type=int, default=0,
                   help="N > 0: create the pods already bound, pod i on node perf-(i mod N)")
    a = p.parse_args(argv)
    api = admin_api(a.env)
    template = TEMPLATES[a.template]
    errors, lock, next_index = [], threading.Lock(), [a.start]
    end = a.start + a.count

    def worker():
        while True:
            with lock:
                i = next_index[0]
                if i >= end:
                    return
                next_index[0] += 1
            if a.rate > 0:  # pod i is due (i - start) / rate seconds after the start
                delay = started + (i - a.start) / a.rate - time.time()
                if delay > 0:
                    time.sleep(delay)
            pod = template(f"{a.prefix}-{i}", a.namespace, i)
            if a.bind_round_robin > 0:
                pod["spec"]["nodeName"] = f"perf-{i % a.bind_round_robin}"
            try:
                status, body = api.request("POST", f"/api/v1/namespaces/{a.namespace}/pods", pod)
            except RuntimeError as e:
                status, body = 0, {"message": str(e)}
            if status != 201:
                with lock:
                    errors.append(f"{a.prefix}-{i}: HTTP {status}: {body.get('message', body)}")

    started = time.time()
    threads = [threading.Thread(target=worker) for _ in range(a.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({"created": a.count - len(errors), "errors": errors[:5], "n_errors": len(errors),
                      "start": started, "end": time.time()}), flush=True)


def admin_api(env_path):
    env = nodes_mod.read_env(env_path)
    pki = env["PKI_DIR"]
    return nodes_mod.Api(env["APISERVER_URL"], f"{pki}/ca.crt", f"{pki}/admin.crt", f"{pki}/admin.key")


def create_pods(env_path, namespace, template, prefix, count, processes, threads, log_dir, bind_round_robin=0,
                rate=0.0):
    """Creates `count` pods split over `processes` subprocesses; returns (created, errors, start, end)."""
    if count <= 0:
        return 0, [], time.time(), time.time()
    processes = max(1, min(processes, count))
    per, extra = divmod(count, processes)
    procs, start = [], 0
    for k in range(processes):
        n = per + (1 if k < extra else 0)
        cmd = [sys.executable, os.path.abspath(__file__), "_create", "--env", env_path, "--namespace", namespace,
               "--template", template, "--prefix", prefix, "--start", str(start), "--count", str(n),
               "--threads", str(threads), "--bind-round-robin", str(bind_round_robin),
               "--rate", str(rate / processes if rate > 0 else 0)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=open(os.path.join(log_dir, f"create-{prefix}-{k}.log"), "w"), text=True))
        start += n
    created, errors, t0, t1 = 0, [], float("inf"), 0.0
    for proc in procs:
        out, _ = proc.communicate()
        try:
            r = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            errors.append(f"creator pid {proc.pid} exited {proc.returncode} without a result")
            continue
        created += r["created"]
        errors += r["errors"]
        t0, t1 = min(t0, r["start"]), max(t1, r["end"])
    return created, errors, t0, t1


# --- the pod watch -----------------------------------------------------------------------------------

class PodWatch:
    """Watches every pod from a list's resourceVersion; per namespace of interest, records when each
    pod was first seen unbound and when first seen bound (time.monotonic())."""

    def __init__(self, api, namespaces):
        self.api = api
        self.namespaces = set(namespaces)
        self.lock = threading.Lock()
        self.seen = {ns: {} for ns in namespaces}    # ns -> name -> monotonic time first seen unbound
        self.bound = {ns: {} for ns in namespaces}   # ns -> name -> monotonic time first seen bound
        self.errors = []
        self.stop = threading.Event()
        self.events = 0
        status, body = api.request("GET", "/api/v1/pods?limit=1")
        if status != 200:
            raise RuntimeError(f"list pods: HTTP {status}")
        self.rv = body["metadata"]["resourceVersion"]
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def bound_count(self, ns):
        with self.lock:
            return len(self.bound[ns])

    def snapshot(self, ns):
        with self.lock:
            return dict(self.seen[ns]), dict(self.bound[ns])

    def _run(self):
        while not self.stop.is_set():
            conn = http.client.HTTPSConnection(self.api.url.hostname, self.api.url.port, context=self.api.context,
                                               timeout=60)
            try:
                conn.request("GET", f"/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion={self.rv}"
                                    f"&timeoutSeconds=1800", headers={"Accept": "application/json"})
                resp = conn.getresponse()
                if resp.status != 200:
                    self.errors.append(f"watch: HTTP {resp.status}")
                    time.sleep(0.5)
                    continue
                while not self.stop.is_set():
                    line = resp.readline()
                    if not line:
                        break
                    now = time.monotonic()
                    event = json.loads(line)
                    obj = event["object"]
                    meta = obj.get("metadata", {})
                    self.rv = meta.get("resourceVersion", self.rv)
                    if event["type"] == "ERROR":
                        self.errors.append(f"watch ERROR event: {obj.get('message')}")
                        return  # a 410 would need a relist; the run is invalid anyway
                    if event["type"] not in ("ADDED", "MODIFIED"):
                        continue
                    ns = meta.get("namespace")
                    if ns not in self.namespaces:
                        continue
                    name = meta["name"]
                    self.events += 1
                    with self.lock:
                        if obj.get("spec", {}).get("nodeName"):
                            self.bound[ns].setdefault(name, now)
                            self.seen[ns].setdefault(name, now)
                        else:
                            self.seen[ns].setdefault(name, now)
            except (OSError, http.client.HTTPException, ValueError) as e:
                if not self.stop.is_set():
                    self.errors.append(f"watch reconnect after: {e}")
                    time.sleep(0.1)
            finally:
                conn.close()


class ThroughputCollector:
    """scheduler_perf's throughputCollector (test/integration/scheduler_perf/util.go), counting bound
    pods of one namespace from the PodWatch every second."""

    def __init__(self, watch, namespace, interval=1.0):
        self.watch, self.namespace, self.interval = watch, namespace, interval
        self.samples = []    # pods/s, one per interval (merged intervals repeated)
        self.progress = []   # [seconds since collector start, bound pods] at every tick
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.t0 = time.monotonic()
        self.thread.start()

    def _run(self):
        last_count, last_time, started, skipped = 0, time.monotonic(), False, 0
        next_tick = time.monotonic() + self.interval
        while not self.stop.is_set():
            delay = next_tick - time.monotonic()
            if delay > 0 and self.stop.wait(delay):
                return
            next_tick += self.interval
            now = time.monotonic()
            scheduled = self.watch.bound_count(self.namespace)
            self.progress.append([round(now - self.t0, 3), scheduled])
            if scheduled == 0:
                continue
            if not started:  # the first non-zero sample only sets the baseline
                started, last_count, last_time = True, scheduled, now
                continue
            new = scheduled - last_count
            if new == 0:
                skipped += 1
                continue
            throughput = new / (now - last_time)
            self.samples.extend([throughput] * (skipped + 1))
            last_count, last_time, skipped = scheduled, now, 0

    def summary(self):
        s = sorted(self.samples)
        if not s:
            return {"samples": 0, "average": None, "perc50": None, "perc90": None, "perc95": None, "perc99": None}

        def rank(p):
            return s[int(math.ceil(len(s) * p / 100)) - 1]
        return {"samples": len(s), "average": sum(s) / len(s), "perc50": rank(50), "perc90": rank(90),
                "perc95": rank(95), "perc99": rank(99)}


def nearest_rank(values, p):
    s = sorted(values)
    return s[int(math.ceil(len(s) * p / 100)) - 1] if s else None


# --- the scheduler process ---------------------------------------------------------------------------

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime of the process (its threads included, children not), in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # fields 14 and 15 of proc(5)
    except (OSError, IndexError, ValueError):
        return None


def control_plane_pids(cp_dir):
    """{name: pid} of the control plane's processes (start.sh's pids file: "name pid executable")."""
    pids = {}
    try:
        with open(os.path.join(cp_dir, "pids")) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[1].isdigit():
                    pids[parts[0]] = int(parts[1])
    except OSError:
        pass
    return pids


def control_plane_cpu(pids):
    """{name: CPU seconds so far} of those processes (None where unreadable)."""
    return {name: cpu_seconds(pid) for name, pid in pids.items()}


def apiserver_request_counts(api):
    """{"VERB resource[/subresource]": count} from the API server's apiserver_request_total (all
    clients; the difference between two readings is what a phase asked for)."""
    counts = {}
    try:
        conn = api._conn()
        conn.request("GET", "/metrics", headers={"Accept": "text/plain", "User-Agent": "kube-scheduler-cpp-bench"})
        resp = conn.getresponse()
        text = resp.read().decode("utf-8", "replace")
        if resp.status != 200:
            return None
    except (OSError, http.client.HTTPException):
        api.local.conn = None
        return None
    for line in text.splitlines():
        if not line.startswith("apiserver_request_total{"):
            continue
        labels_text, _, value = line[len("apiserver_request_total{"):].rpartition("} ")
        labels = dict(part.split("=", 1) for part in labels_text.split('",') if "=" in part)
        labels = {k: v.strip('"') for k, v in labels.items()}
        key = f"{labels.get('verb', '?')} {labels.get('resource', '?')}"
        if labels.get("subresource"):
            key += "/" + labels["subresource"]
        counts[key] = counts.get(key, 0) + float(value)
    return counts


def proc_stat_cpu():
    """(all, idle + iowait, steal) jiffies summed over the CPUs, from /proc/stat's "cpu" line, or None."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal guest guest_nice; guest time is inside user.
    return sum(fields[:8]), fields[3] + fields[4], fields[7] if len(fields) > 7 else 0


class SpeedProbe:
    """bench/speed_probe.py running beside a measured phase: a fixed unit of work every 0.25 s, timed
    in its own CPU time. stop() ends it and returns the CPU ms of each unit."""

    def __init__(self):
        self.samples = []
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "speed_probe.py")],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            parts = line.split()
            if len(parts) == 2:
                self.samples.append(float(parts[1]))

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=5)
        self.proc.stdout.close()
        return list(self.samples)


def machine_speed(probe_ms, stat0, stat1):
    """The machine's state over a measured phase: the probe's CPU ms per unit (mean, p50, p90; lower
    is a faster machine), the share of the guest's CPU time the hypervisor stole and the share busy
    (of all CPUs, in %), and `capacity`: probe units per second of one CPU, net of the stolen time,
    the figure the throughput of a CPU-bound run moves with."""
    speed = {"probe_units": len(probe_ms)}
    if probe_ms:
        mean = sum(probe_ms) / len(probe_ms)
        speed.update(probe_cpu_ms_mean=round(mean, 3), probe_cpu_ms_p50=nearest_rank(probe_ms, 50),
                     probe_cpu_ms_p90=nearest_rank(probe_ms, 90))
    if stat0 and stat1 and stat1[0] > stat0[0]:
        total = stat1[0] - stat0[0]
        speed["steal_percent"] = round(100.0 * (stat1[2] - stat0[2]) / total, 2)
        speed["busy_percent"] = round(100.0 * (total - (stat1[1] - stat0[1]) - (stat1[2] - stat0[2])) / total, 1)
    if probe_ms and "steal_percent" in speed:
        speed["capacity"] = round(1000.0 * (1 - speed["steal_percent"] / 100) / speed["probe_cpu_ms_mean"], 2)
    return speed


def status_kib(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def write_config(path, kubeconfig, plugin_config="", content_type=None):
    """content_type: clientConnection.contentType, or None for the default (protobuf for both)."""
    disabled = "".join(f"      - name: {name}\n" for name in DISABLED_PLUGINS)
    if disabled:
        disabled = "  plugins:\n    multiPoint:\n      disabled:\n" + disabled
    content = f"  contentType: {content_type}\n" if content_type else ""
    with open(path, "w") as f:
        f.write(f"""apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: {kubeconfig}
  qps: {QPS}
  burst: {BURST}
{content}leaderElection:
  leaderElect: false
profiles:
- schedulerName: default-scheduler
{disabled}{plugin_config}""")


def scheduler_command(which, args, env, config_path):
    if which == "ours":
        return [os.path.join(args.build_dir, "scheduler", "kube-scheduler-cpp"), f"--config={config_path}",
                "--leader-elect=false", "--bind-address=127.0.0.1", "--secure-port=0", f"--v={args.v}"]
    if which == "upstream":
        return [os.path.join(env["KSCHED_CP_BIN"], "kube-scheduler"), f"--config={config_path}",
                "--leader-elect=false", "--bind-address=127.0.0.1", "--secure-port=0", f"--v={args.v}"]
    return [os.path.join(args.build_dir, "bench", "ksched-null-binder"), f"--kubeconfig={env['KUBECONFIG_SCHEDULER']}",
            f"--qps={QPS}", f"--burst={BURST}"] + (
                [f"--kube-api-content-type={args.content_type}"] if args.content_type else [])


def stop_process(proc, grace=15.0):
    """SIGTERM, SIGKILL after `grace` seconds; to the process group it leads when it was started with
    one of its own (a --wrap-ours wrapper and the scheduler under it)."""
    group = getattr(proc, "ksched_own_group", False)

    def send(sig):
        try:
            if group:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
        except ProcessLookupError:
            pass

    def group_alive():
        try:
            os.killpg(proc.pid, 0)
            return True
        except ProcessLookupError:
            return False

    if proc.poll() is None or (group and group_alive()):
        send(signal.SIGTERM)
        deadline = time.monotonic() + grace
        try:
            proc.wait(grace)
            while group and group_alive() and time.monotonic() < deadline:
                time.sleep(0.1)
            if group and group_alive():
                raise subprocess.TimeoutExpired(proc.args, grace)
        except subprocess.TimeoutExpired:
            log(f"pid {proc.pid} ignored SIGTERM for {grace:.0f} s: SIGKILL")
            send(signal.SIGKILL)
            proc.wait()
    return proc.returncode


def wait_bound(watch, ns, count, timeout, proc, what):
    deadline = time.monotonic() + timeout
    while watch.bound_count(ns) < count:
        if proc.poll() is not None:
            raise RuntimeError(f"{what}: the scheduler exited with status {proc.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: {watch.bound_count(ns)} of {count} pods bound after {timeout:.0f} s")
        time.sleep(0.05)


# --- one run -------------------------------------------------------------------------------------------

def run_one(workload, which, args, log_dir):
    w = WORKLOADS[workload]
    n_nodes, n_init, n_measured = sizes(workload, args)
    tag = f"{workload}.{which}"
    run_log_dir = os.path.join(log_dir, tag)
    os.makedirs(run_log_dir, exist_ok=True)
    result = {"workload": workload, "scheduler": which, "shape": w["shape"], "precreate": args.precreate,
              "create_rate_cap": args.create_rate or None, "nodes": n_nodes, "init_pods": n_init,
              "measured_pods": n_measured, "short": args.short, "scale": args.scale, "client_qps": QPS,
              "client_burst": BURST,
              "client_content_type": args.content_type or "application/vnd.kubernetes.protobuf (default)",
              "disabled_plugins": DISABLED_PLUGINS, "log_dir": run_log_dir, "errors": []}
    log(f"{tag}: starting a control plane")
    cp_dir = subprocess.run([os.path.join(CONTROLPLANE, "start.sh"), "--owner", str(os.getpid())], check=True,
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    env_path = os.path.join(cp_dir, "env")
    env = nodes_mod.read_env(env_path)
    proc = None
    watch = None
    probe = None
    try:
        api = admin_api(env_path)
        if w.get("churn_interval_ms"):
            status, body = api.request("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", HIGH_PRIORITY_CLASS)
            if status != 201:
                raise RuntimeError(f"create PriorityClass: HTTP {status}: {body.get('message')}")
        for ns in (INIT_NS, MEASURED_NS, CHURN_NS):
            status, body = api.request("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace",
                                                                      "metadata": {"name": ns}})
            if status != 201:
                raise RuntimeError(f"create namespace {ns}: HTTP {status}: {body.get('message')}")
        t = time.monotonic()
        subprocess.run([sys.executable, os.path.join(CONTROLPLANE, "nodes.py"), "create", "--env", env_path,
                        "--prefix", "perf", "--count", str(n_nodes), "--cpu", "4", "--memory", "32Gi", "--pods", "110",
                        "--workers", "32", *w["node_args"]], check=True, stdout=subprocess.DEVNULL)
        result["node_create_seconds"] = round(time.monotonic() - t, 2)
        watch = PodWatch(api, (INIT_NS, MEASURED_NS, CHURN_NS))

        config_path = os.path.join(run_log_dir, "scheduler-config.yaml")
        write_config(config_path, env["KUBECONFIG_SCHEDULER"], w.get("plugin_config", ""), args.content_type)
        cmd = scheduler_command(which, args, env, config_path)
        result["scheduler_command"] = " ".join(shlex.quote(os.path.relpath(c, REPO) if c.startswith(REPO + "/") else c)
                                               for c in cmd)
        if which != "null":
            with open(config_path) as f:
                result["scheduler_config"] = f.read()
        sched_log = open(os.path.join(run_log_dir, "scheduler.log"), "w")

        def start_scheduler():
            # --wrap-ours (profiling): the figures then describe the wrapper's process, not ours.
            wrapped = shlex.split(args.wrap_ours) + cmd if which == "ours" and args.wrap_ours else cmd
            if wrapped is not cmd:
                result["wrapped_by"] = args.wrap_ours
            # A wrapper may not pass SIGTERM on (heaptrack's script does not): it runs in a process
            # group of its own, which stop_process signals whole.
            started = subprocess.Popen(wrapped, stdout=sched_log, stderr=subprocess.STDOUT,
                                       start_new_session=wrapped is not cmd)
            started.ksched_own_group = wrapped is not cmd
            result["scheduler_pid"] = started.pid
            log(f"{tag}: {n_nodes} nodes; scheduler pid {started.pid}")
            return started

        if not args.precreate:
            # scheduler_perf's order: the scheduler runs; the initial pods are created and scheduled
            # by it; then the measured pods are created while the collector samples.
            proc = start_scheduler()
            t = time.monotonic()
            created, errors, _, _ = create_pods(env_path, INIT_NS, w["init_template"], "init", n_init, args.creators,
                                                args.creator_threads, run_log_dir)
            if errors:
                raise RuntimeError(f"initial pods: {len(errors)} creations failed, e.g. {errors[0]}")
            wait_bound(watch, INIT_NS, n_init, args.timeout, proc, "initial pods")
            result["init_seconds"] = round(time.monotonic() - t, 2)
        else:
            # --precreate: the initial pods created already bound (round-robin), the measured pods
            # created pending, and only then the scheduler started: the measurement is the
            # scheduler's alone, without pod creation competing for the machine.
            t = time.monotonic()
            created, errors, _, _ = create_pods(env_path, INIT_NS, w["init_template"], "init", n_init, args.creators,
                                                args.creator_threads, run_log_dir, bind_round_robin=n_nodes)
            if errors:
                raise RuntimeError(f"initial pods: {len(errors)} creations failed, e.g. {errors[0]}")
            result["init_seconds"] = round(time.monotonic() - t, 2)
            created, errors, c0, c1 = create_pods(env_path, MEASURED_NS, w["measured_template"], "pod", n_measured,
                                                  args.creators, args.creator_threads, run_log_dir, rate=args.create_rate)
            if errors:
                raise RuntimeError(f"measured pods: {len(errors)} creations failed, e.g. {errors[0]}")
            deadline = time.monotonic() + 60
            while len(watch.snapshot(MEASURED_NS)[0]) < created and time.monotonic() < deadline:
                time.sleep(0.05)

        # Measured pods.
        collector = ThroughputCollector(watch, MEASURED_NS)
        if args.precreate:
            proc = start_scheduler()
        cp_pids = control_plane_pids(cp_dir)
        cp_cpu0 = control_plane_cpu(cp_pids)
        requests0 = apiserver_request_counts(api)
        probe, stat0 = SpeedProbe(), proc_stat_cpu()
        cpu0, wall0 = cpu_seconds(proc.pid), time.monotonic()
        collector.start()
        rss_samples, sampling = [], threading.Event()

        def sample_rss():
            while not sampling.wait(1.0):
                rss = status_kib(proc.pid, "VmRSS")
                if rss is not None:
                    rss_samples.append([round(time.monotonic() - wall0, 1), rss])
        threading.Thread(target=sample_rss, daemon=True).start()
        churn_stop, churned, churn_failures = threading.Event(), [0], []
        if w.get("churn_interval_ms"):
            def churn():
                i = 0
                while not churn_stop.wait(w["churn_interval_ms"] / 1000):
                    try:
                        status, body = api.request("POST", f"/api/v1/namespaces/{CHURN_NS}/pods",
                                                   pod_high_priority_large_cpu(f"churn-{i}", CHURN_NS, i))
                    except RuntimeError as e:
                        status, body = None, {"message": str(e)}
                    if status == 201:
                        churned[0] += 1
                    else:
                        churn_failures.append(f"HTTP {status}: {body.get('message')}")
                    i += 1
            threading.Thread(target=churn, daemon=True).start()
        if not args.precreate:
            created, errors, c0, c1 = create_pods(env_path, MEASURED_NS, w["measured_template"], "pod", n_measured,
                                                  args.creators, args.creator_threads, run_log_dir, rate=args.create_rate)
            if errors:
                result["errors"].append(f"measured pods: {len(errors)} creations failed, e.g. {errors[0]}")
        try:
            wait_bound(watch, MEASURED_NS, created, args.timeout, proc, "measured pods")
        except RuntimeError as e:
            result["errors"].append(str(e))
        wall1, cpu1 = time.monotonic(), cpu_seconds(proc.pid)
        stat1 = proc_stat_cpu()
        result["machine_speed"] = machine_speed(probe.stop(), stat0, stat1)
        probe = None
        cp_cpu1 = control_plane_cpu(cp_pids)
        requests1 = apiserver_request_counts(api)
        collector.stop.set()
        churn_stop.set()
        sampling.set()
        time.sleep(0.2)

        seen, bound = watch.snapshot(MEASURED_NS)
        # --precreate: from the scheduler's start (the pods were waiting for it), not from creation.
        latencies = [1000.0 * (bound[n] - max(seen[n], wall0)) for n in bound if n in seen]
        result["throughput"] = collector.summary()
        result["throughput_samples"] = [round(x, 2) for x in collector.samples]
        result["progress"] = collector.progress
        result["measured"] = {"created": created, "bound": len(bound), "seconds": round(wall1 - wall0, 3),
                              "create_seconds": round(c1 - c0, 3) if created else None,
                              "create_rate": round(created / (c1 - c0), 1) if created and c1 > c0 else None,
                              "overall_rate": round(len(bound) / (wall1 - wall0), 1),
                              "churn_pods_created": churned[0]}
        if churn_failures:
            result["errors"].append(f"churn pods: {len(churn_failures)} creations failed, e.g. {churn_failures[0]}")
        if w.get("churn_interval_ms") and not churned[0]:
            result["errors"].append("churn pods: none created")
        result["latency_ms"] = {"n": len(latencies), "p50": nearest_rank(latencies, 50),
                                "p90": nearest_rank(latencies, 90), "p99": nearest_rank(latencies, 99),
                                "max": max(latencies) if latencies else None}
        total_cpu = cpu_seconds(proc.pid)
        result["cpu_seconds"] = {"measured": round(cpu1 - cpu0, 3) if cpu0 is not None and cpu1 is not None else None,
                                 "total": total_cpu}
        result["cpu_ms_per_pod"] = (round(1000 * (cpu1 - cpu0) / len(bound), 4)
                                    if bound and cpu0 is not None and cpu1 is not None else None)
        # What the run cost the API server and etcd (same phase): the scheduler's requests, watches
        # and events are paid there too, on the same two cores.
        result["control_plane_cpu_seconds"] = {
            name: round(cp_cpu1[name] - cp_cpu0[name], 3)
            for name in cp_pids if cp_cpu0.get(name) is not None and cp_cpu1.get(name) is not None}
        result["control_plane_cpu_ms_per_pod"] = (
            round(1000 * sum(result["control_plane_cpu_seconds"].values()) / len(bound), 4)
            if bound and result["control_plane_cpu_seconds"] else None)
        if requests0 is not None and requests1 is not None and bound:
            # API requests of every client (pod creators, this watch, the scheduler) per bound pod.
            result["api_requests_per_pod"] = {
                key: round((requests1[key] - requests0.get(key, 0)) / len(bound), 3)
                for key in sorted(requests1) if requests1[key] - requests0.get(key, 0) >= 1}
        hwm = status_kib(proc.pid, "VmHWM")
        result["peak_rss_bytes"] = hwm * 1024 if hwm is not None else None
        result["rss_samples_kib"] = rss_samples
        result["watch_errors"] = watch.errors[:10]
        if which != "null":  # the null binder places blindly by design
            result["overcommitted_nodes"] = placement_check(api, workload)
            if WORKLOADS[workload]["measured_template"] == "pod_topology_spreading":
                result["zone_skew"] = zone_skew(api)
        result["exit_status"] = stop_process(proc)
        proc = None
        log(f"{tag}: {len(bound)}/{created} bound in {wall1 - wall0:.1f} s, throughput avg "
            f"{fmt(result['throughput']['average'])} pods/s, latency p50 {fmt(result['latency_ms']['p50'])} ms, "
            f"CPU {fmt(result['cpu_seconds']['measured'])} s, peak RSS {fmt(result['peak_rss_bytes'] and result['peak_rss_bytes'] / 2**20)} MiB")
    except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
        result["errors"].append(f"{type(e).__name__}: {e}")
        log(f"{tag}: FAILED: {e}")
    finally:
        if probe is not None:
            probe.stop()
        if proc is not None:
            result["exit_status"] = stop_process(proc)
        if watch is not None:
            watch.stop.set()
        subprocess.run([os.path.join(CONTROLPLANE, "stop.sh"), cp_dir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return result


# Figures whose median over repetitions is reported: (section of the result or None, key).
MEDIAN_FIGURES = (
    ("throughput", "average"), ("throughput", "perc50"), ("throughput", "perc90"), ("throughput", "perc95"),
    ("throughput", "perc99"), ("latency_ms", "p50"), ("latency_ms", "p90"), ("latency_ms", "p99"),
    ("cpu_seconds", "measured"), ("cpu_seconds", "total"), (None, "cpu_ms_per_pod"),
    (None, "control_plane_cpu_ms_per_pod"), (None, "peak_rss_bytes"), ("measured", "create_rate"),
    ("measured", "overall_rate"), ("machine_speed", "probe_cpu_ms_mean"), ("machine_speed", "steal_percent"),
    ("machine_speed", "capacity"),
)


def run_rounds(schedulers, repeat, run):
    """Runs `run(scheduler, k)` `repeat` times per scheduler, round by round: round k runs every
    scheduler once, in the given order, before round k + 1 starts. Returns {scheduler: [its runs in
    round order]}. (main marks each repeated run with its "round" for round_by_round_goals.)

    Why rounds: this host's speed drifts over minutes, so three runs of one scheduler and then three
    of the next would compare different stretches of it; within a round the schedulers run back to
    back, and a ratio taken round by round (round_by_round_goals) leaves most of the drift out."""
    reps = {which: [] for which in schedulers}
    for k in range(1, repeat + 1):
        for which in schedulers:
            reps[which].append(run(which, k))
    return reps


def median_low(values):
    """The lower median of the values that are not None (an element of them), or None."""
    s = sorted(v for v in values if v is not None)
    return s[(len(s) - 1) // 2] if s else None


def combine_repetitions(reps, names):
    """One result for repeated runs of a (workload, scheduler): a copy of the run with the median
    throughput (its samples, progress and counts, so that the plot and the sample-based checks see
    one real run), each figure of MEDIAN_FIGURES replaced by its lower median over all runs, the
    latency max by the largest, the errors of every run (prefixed with its file), and a
    `repetitions` list of each run's figures. The lower median keeps percentiles in order (each
    run's p50 <= p90 <= p99 holds for the k-th smallest of each) and makes the throughput mean the
    chosen run's own."""
    if len(reps) == 1:
        return reps[0]
    def tp(r):
        return (r.get("throughput") or {}).get("average")
    # Runs without a throughput (failed) are left out of the choice, as median_low leaves them out.
    order = sorted((i for i in range(len(reps)) if tp(reps[i]) is not None), key=lambda i: tp(reps[i]))
    chosen = order[(len(order) - 1) // 2] if order else 0
    combined = copy.deepcopy(reps[chosen])
    for section, key in MEDIAN_FIGURES:
        value = median_low([(r.get(section) or {}).get(key) if section else r.get(key) for r in reps])
        if section:
            if section in combined or value is not None:  # no empty section for a figure no run has
                combined.setdefault(section, {})[key] = value
        else:
            combined[key] = value
    maxima = [(r.get("latency_ms") or {}).get("max") for r in reps]
    combined.setdefault("latency_ms", {})["max"] = max((m for m in maxima if m is not None), default=None)
    combined["errors"] = [f"{name}: {e}" for r, name in zip(reps, names) for e in r.get("errors", [])]
    combined["median_of"] = len(reps)
    combined["samples_from"] = names[chosen]
    combined["repetitions"] = [
        {"file": name, "round": r.get("round"), "throughput_mean": tp(r), "latency_p50_ms": (r.get("latency_ms") or {}).get("p50"),
         "cpu_ms_per_pod": r.get("cpu_ms_per_pod"), "peak_rss_bytes": r.get("peak_rss_bytes"),
         "control_plane_cpu_ms_per_pod": r.get("control_plane_cpu_ms_per_pod"),
         "bound": (r.get("measured") or {}).get("bound"), "errors": len(r.get("errors", []))}
        for r, name in zip(reps, names)]
    return combined


DECISION_RATE_RUNS = 3


def combine_decision_rates(reports):
    """One decision-rate report from several runs of ksched_decision_rate: the first report with, per
    size (entry of "runs"), the entry whose pods/s is the lower median, and every run's pods/s listed
    under "each_run_pods_per_second"."""
    combined = copy.deepcopy(reports[0])
    for i, entry in enumerate(combined.get("runs", [])):
        same = [r["runs"][i] for r in reports if i < len(r.get("runs", [])) and r["runs"][i]["nodes"] == entry["nodes"]]
        median = median_low([e["pods_per_second"] for e in same])
        chosen = next(e for e in same if e["pods_per_second"] == median)
        combined["runs"][i] = dict(chosen, each_run_pods_per_second=[e["pods_per_second"] for e in same])
    combined["median_of"] = len(reports)
    return combined


def cpu_millis(q):
    q = str(q)
    return int(q[:-1]) if q.endswith("m") else int(float(q) * 1000)


def list_all(api, path):
    """Every item of a list, page by page (limit 5000)."""
    items, cont = [], ""
    while True:
        status, body = api.request("GET", f"{path}?limit=5000{cont}")
        if status != 200:
            raise RuntimeError(f"list {path}: HTTP {status}")
        items.extend(body["items"])
        cont = body["metadata"].get("continue")
        if not cont:
            return items
        cont = "&continue=" + urllib.parse.quote(cont)


def placement_check(api, workload):
    """Bound pods per node against the node template (4 CPU, 110 pods, 8 GPUs when the workload has
    them) and, for the anti-affinity workload, at most one color=green pod per node. Returns the
    number of nodes violating any of these (a scheduler that overcommits is not faster, it is wrong)."""
    per_node = {}
    for pod in list_all(api, "/api/v1/pods"):
        node = pod["spec"].get("nodeName")
        if not node:
            continue
        n = per_node.setdefault(node, {"pods": 0, "cpu": 0, "gpu": 0, "green": 0})
        n["pods"] += 1
        for c in pod["spec"]["containers"]:
            req = c.get("resources", {}).get("requests", {})
            n["cpu"] += cpu_millis(req.get("cpu", "0"))
            n["gpu"] += int(req.get("nvidia.com/gpu", "0"))
        n["green"] += pod["metadata"].get("labels", {}).get("color") == "green"
    gpus = 8 if "nvidia.com/gpu=8" in WORKLOADS[workload]["node_args"] else 0
    return sum(1 for n in per_node.values()
               if n["pods"] > 110 or n["cpu"] > 4000 or n["gpu"] > gpus or n["green"] > 1)


def zone_skew(api):
    """The topology-spreading workload's outcome: bound color=blue pods per zone, max minus min (the
    template's maxSkew is 5 with DoNotSchedule, so a correct scheduler ends at most 5 apart)."""
    zone_of = {n["metadata"]["name"]: n["metadata"].get("labels", {}).get(ZONE_LABEL)
               for n in list_all(api, "/api/v1/nodes")}
    per_zone = {zone: 0 for zone in set(zone_of.values()) if zone is not None}
    for pod in list_all(api, "/api/v1/pods"):
        node = pod["spec"].get("nodeName")
        if node and pod["metadata"].get("labels", {}).get("color") == "blue" and zone_of.get(node):
            per_zone[zone_of[node]] += 1
    return max(per_zone.values()) - min(per_zone.values()) if per_zone else None


def fmt(value, digits=1):
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


# --- reports -------------------------------------------------------------------------------------------

def machine():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        pass
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    try:
        with open("/proc/meminfo") as f:
            mem = int(next(line.split()[1] for line in f if line.startswith("MemTotal"))) * 1024
    except (OSError, StopIteration):
        mem = None
    return {"cpus": os.cpu_count(), "cpu_model": cpu, "memory_bytes": mem, "kernel": platform.release(),
            "load_average_1m_at_start": load, "python": platform.python_version()}


def api_requests_text(per_pod):
    """The main requests per pod, e.g. "POST pods 1.0, POST pods/binding 1.0, POST events 1.0"."""
    if not per_pod:
        return None
    main = [(k, v) for k, v in per_pod.items() if v >= 0.05 and not k.startswith("WATCH")]
    return ", ".join(f"{k} {v:.2f}" for k, v in sorted(main, key=lambda kv: -kv[1])) or None


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def markdown(results, decision, meta):
    mode = "--short (smoke sizes, not results)" if meta["short"] else f"scale {meta['scale']}"
    if meta["create_rate"]:
        mode += f"; measured pods created at most {meta['create_rate']:g}/s (throughput cannot exceed it)"
    if meta["precreate"]:
        mode += ("; --precreate (initial pods created bound, measured pods created before the scheduler "
                 "started; latency counted from the scheduler's start)")
    lines = [f"# scheduler_perf-style benchmark, {meta['started']}", "",
             f"Command: `{meta['command']}`  ",
             f"Machine: {meta['machine']['cpus']} CPUs ({meta['machine']['cpu_model']}), "
             f"{fmt((meta['machine']['memory_bytes'] or 0) / 2**30)} GiB, Linux {meta['machine']['kernel']}, "
             f"1-min load {fmt(meta['machine']['load_average_1m_at_start'], 2)} at start.  ",
             f"Mode: {mode}; "
             f"client QPS/burst {QPS}/{BURST} for every scheduler; leader election off; default parallelism; " +
             (f"plugins disabled for both schedulers (not compiled into ours): {', '.join(DISABLED_PLUGINS)}."
              if DISABLED_PLUGINS else "every default plugin runs in both schedulers' profiles."), "",
             "Throughput: bound measured pods sampled every second, as scheduler_perf's SchedulingThroughput "
             "(first non-zero sample skipped, empty intervals merged, nearest-rank percentiles). Latency: "
             "watch-seen creation to watch-seen binding. CPU: utime+stime of the scheduler process during the "
             "measured phase (API server + etcd: theirs over the same phase, per bound pod: what the scheduler's "
             "requests, watches and events cost there); peak RSS: VmHWM over its life. Machine: "
             "bench/speed_probe.py beside the measured phase (a fixed unit of work every 0.25 s, timed in its "
             "own CPU time: lower is a faster machine) and /proc/stat's busy and stolen time over the phase; "
             "capacity = probe units per CPU-second net of stolen time (this shared host's speed varies by "
             "tens of percent between runs; `--compare` uses it).", ""]
    by = {}
    for r in results:
        by.setdefault(r["workload"], {})[r["scheduler"]] = r
    rows = [("throughput mean (pods/s)", lambda r: r.get("throughput", {}).get("average")),
            ("throughput p50", lambda r: r.get("throughput", {}).get("perc50")),
            ("throughput p90", lambda r: r.get("throughput", {}).get("perc90")),
            ("throughput p99", lambda r: r.get("throughput", {}).get("perc99")),
            ("throughput samples", lambda r: r.get("throughput", {}).get("samples")),
            ("latency p50 (ms)", lambda r: r.get("latency_ms", {}).get("p50")),
            ("latency p99 (ms)", lambda r: r.get("latency_ms", {}).get("p99")),
            ("CPU seconds (measured phase)", lambda r: r.get("cpu_seconds", {}).get("measured")),
            ("CPU ms per pod", lambda r: r.get("cpu_ms_per_pod")),
            ("API server + etcd CPU ms per pod", lambda r: r.get("control_plane_cpu_ms_per_pod")),
            ("API requests per pod, all clients", lambda r: api_requests_text(r.get("api_requests_per_pod"))),
            ("peak RSS (MiB)", lambda r: r["peak_rss_bytes"] / 2**20 if r.get("peak_rss_bytes") else None),
            ("bound / created", lambda r: f"{r['measured']['bound']}/{r['measured']['created']}" if r.get("measured") else None),
            ("pod creation rate (pods/s)", lambda r: r.get("measured", {}).get("create_rate")),
            ("unschedulable churn pods created", lambda r: r.get("measured", {}).get("churn_pods_created") or None),
            ("nodes over capacity", lambda r: r.get("overcommitted_nodes", "n/a")),
            ("blue pods per zone, max - min (maxSkew 5)", lambda r: r.get("zone_skew")),
            ("machine: probe CPU ms per unit (mean)", lambda r: (r.get("machine_speed") or {}).get("probe_cpu_ms_mean")),
            ("machine: CPU busy / stolen (%)", lambda r: "{} / {}".format(
                fmt((r.get("machine_speed") or {}).get("busy_percent")),
                fmt((r.get("machine_speed") or {}).get("steal_percent"), 2)) if r.get("machine_speed") else None),
            ("machine: capacity (probe units per CPU-second)", lambda r: (r.get("machine_speed") or {}).get("capacity"))]
    for workload, runs in by.items():
        any_run = next(iter(runs.values()))
        repeated = max(r.get("median_of", 1) for r in runs.values())
        lines += [f"## {workload}", "",
                  f"{any_run['shape']}; {any_run['nodes']} nodes, {any_run['init_pods']} initial pods, "
                  f"{any_run['measured_pods']} measured pods." +
                  (f" Each scheduler ran {repeated} times, each on a fresh control plane: every figure is the "
                   f"(lower) median of the runs, the samples, counts and plot are those of the run with the "
                   f"median throughput; each run is in `{workload}.<scheduler>.run<K>.json`." if repeated > 1 else ""),
                  ""]
        present = [s for s in SCHEDULERS if s in runs]
        names = {"ours": "kube-scheduler-cpp", "upstream": "kube-scheduler v1.37.2", "null": "null binder (ceiling)"}
        lines.append("| | " + " | ".join(names[s] for s in present) + " |")
        lines.append("|---|" + "---:|" * len(present))
        shown = list(rows)
        if repeated > 1:
            shown.insert(5, ("throughput mean of each run", lambda r: ", ".join(
                fmt(x["throughput_mean"]) for x in r.get("repetitions", [])) or "1 run"))
            shown.insert(10, ("CPU ms per pod of each run", lambda r: ", ".join(
                fmt(x["cpu_ms_per_pod"], 2) for x in r.get("repetitions", [])) or "1 run"))
        for label, get in shown:
            lines.append(f"| {label} | " + " | ".join(fmt(get(runs[s])) for s in present) + " |")
        errs = [f"{s}: {e}" for s in present for e in runs[s].get("errors", [])]
        ours, up, null = runs.get("ours"), runs.get("upstream"), runs.get("null")
        goals = []
        tp = lambda r: r.get("throughput", {}).get("average") if r else None  # noqa: E731
        if ours and up:
            goals.append(f"throughput ours/upstream {fmt(ratio(tp(ours), tp(up)), 2)}× (goal ≥ 2)")
            goals.append(f"CPU per pod upstream/ours {fmt(ratio(up.get('cpu_ms_per_pod'), ours.get('cpu_ms_per_pod')), 2)}× (goal ≥ 5)")
            goals.append(f"peak RSS upstream/ours {fmt(ratio(up.get('peak_rss_bytes'), ours.get('peak_rss_bytes')), 2)}× (goal ≥ 4)")
        if ours and null:
            goals.append(f"throughput ours/null {fmt(100 * ratio(tp(ours), tp(null)) if ratio(tp(ours), tp(null)) is not None else None, 0)}% (goal ≥ 90%)")
        label = "Goals (meaningless here: smoke sizes, capped creation)" if meta["short"] else "Goals"
        lines += ["", f"{label}: " + "; ".join(goals) + "." if goals else ""]
        paired = round_by_round_goals(ours, up, null)
        if paired:
            lines += ["", "Round by round (a round's schedulers ran back to back on the same stretch of the "
                      "host's speed; each round's ratio, then their median): " + "; ".join(paired) + "."]
        adjusted = speed_adjusted_goals(ours, up, null)
        if adjusted:
            lines += ["", "The same with each phase's machine speed taken out (derived, as `--compare` adjusts: "
                      "throughput divided by the phase's capacity, CPU per pod by its probe CPU ms per unit; "
                      "the phases ran minutes apart on a shared host): " + "; ".join(adjusted) + "."]
        if errs:
            lines += ["", "Errors: " + "; ".join(errs)]
        for s in present:
            lines.append(f"- {s}: `{runs[s].get('scheduler_command', '')}`")
        lines.append("")
    if decision:
        lines += ["## In-process decision rate (no API server)", "",
                  f"Command: `{decision['command']}`", "", "| nodes | existing pods | pods timed | pods/s | feasible nodes scored per pod |",
                  "|---:|---:|---:|---:|---:|"]
        for r in decision.get("runs", []):
            each = r.get("each_run_pods_per_second")
            rate = fmt(r["pods_per_second"], 0) + (f" (median of {', '.join(fmt(x, 0) for x in each)})" if each and len(each) > 1 else "")
            lines.append(f"| {r['nodes']} | {r['existing_pods']} | {r['pods']} | {rate} | {fmt(r['mean_feasible_nodes'], 0)} |")
        lines += ["", f"Goal: ≥ 10,000 pods/s at 5000 nodes. Plugins: {', '.join(decision['runs'][0]['plugins']) if decision.get('runs') else ''}.", ""]
    lines += [meta["plots_note"], ""]
    return "\n".join(lines)


def round_by_round_goals(ours, up, null):
    """The goals' ratios taken within each round of a repeated workload (run_rounds: the k-th run of
    each scheduler, back to back), each round's ratio listed, then their lower median. None for a
    single run, for runs not marked with their round (made scheduler by scheduler, before
    run_rounds), or when the schedulers' rounds differ."""
    def each(r, key):
        reps = (r or {}).get("repetitions") or []
        if not reps or any(x.get("round") != k for k, x in enumerate(reps, 1)):
            return []
        return [x.get(key) for x in reps]

    def line(label, num, den, scale, digits, unit):
        if len(num) < 2 or len(num) != len(den):
            return None
        values = [scale * ratio(a, b) if ratio(a, b) is not None else None for a, b in zip(num, den)]
        if None in values:
            return None
        return (f"{label} {', '.join(fmt(v, digits) + unit for v in values)} "
                f"(median {fmt(median_low(values), digits)}{unit})")

    out = [line("throughput ours/upstream", each(ours, "throughput_mean"), each(up, "throughput_mean"), 1, 2, "×"),
           line("CPU per pod upstream/ours", each(up, "cpu_ms_per_pod"), each(ours, "cpu_ms_per_pod"), 1, 2, "×"),
           line("throughput ours/null", each(ours, "throughput_mean"), each(null, "throughput_mean"), 100, 0, "%")]
    return [x for x in out if x]


def speed_adjusted_goals(ours, up, null):
    """The goals' ratios with each phase's own machine speed divided out (none where a phase lacks
    its speed measurement)."""
    def speed(r, key):
        value = ((r or {}).get("machine_speed") or {}).get(key)
        return value if value and value > 0 else None

    def tp(r):
        return (r or {}).get("throughput", {}).get("average")

    out = []
    if ours and up and speed(ours, "capacity") and speed(up, "capacity") and tp(ours) and tp(up):
        out.append("throughput ours/upstream "
                   f"{fmt((tp(ours) / speed(ours, 'capacity')) / (tp(up) / speed(up, 'capacity')), 2)}×")
    if (ours and up and speed(ours, "probe_cpu_ms_mean") and speed(up, "probe_cpu_ms_mean")
            and ours.get("cpu_ms_per_pod") and up.get("cpu_ms_per_pod")):
        out.append("CPU per pod upstream/ours "
                   f"{fmt((up['cpu_ms_per_pod'] / speed(up, 'probe_cpu_ms_mean')) / (ours['cpu_ms_per_pod'] / speed(ours, 'probe_cpu_ms_mean')), 2)}×")
    if ours and null and speed(ours, "capacity") and speed(null, "capacity") and tp(ours) and tp(null):
        out.append("throughput ours/null "
                   f"{fmt(100 * (tp(ours) / speed(ours, 'capacity')) / (tp(null) / speed(null, 'capacity')), 0)}%")
    return out


def plots(results, out):
    try:
        import matplotlib  # noqa: F401
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "Plots: skipped (matplotlib is not importable here; nothing was installed for it)."
    files = []
    by = {}
    for r in results:
        by.setdefault(r["workload"], []).append(r)
    for workload, runs in by.items():
        fig, ax = plt.subplots(figsize=(8, 4))
        for r in runs:
            prog = r.get("progress") or []
            xs = [p[0] for p in prog[1:]]
            ys = [(prog[i][1] - prog[i - 1][1]) / max(prog[i][0] - prog[i - 1][0], 1e-6) for i in range(1, len(prog))]
            ax.plot(xs, ys, label=r["scheduler"])
        ax.set_xlabel("seconds since the measured pods' creation began")
        ax.set_ylabel("pods bound per second")
        ax.set_title(workload)
        ax.legend()
        path = os.path.join(out, f"{workload}.throughput.png")
        fig.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(fig)
        files.append(os.path.basename(path))
    return files, "Plots: " + ", ".join(f"![{f}]({f})" for f in files)


# --- verification (the CTest smoke test) ---------------------------------------------------------

def write_report(out, results, names, repetition_names, decision, meta):
    """OUT/results.md, the PNG plots and OUT/summary.json from the results of a run."""
    png, meta["plots_note"] = plots(results, out)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(markdown(results, decision, meta))
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(dict(meta, runs=names, repetitions=repetition_names, plots=png,
                       decision_rate="decision_rate.json" if decision else None), f, indent=1)
    log(f"wrote {out}/results.md")


def rewrite_report(out):
    """--report-only: results.md, plots and summary.json again from a finished run's JSON (e.g. once
    matplotlib is installed); the measured figures are not touched."""
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    results = []
    for name in summary["runs"]:
        with open(os.path.join(out, name)) as f:
            results.append(json.load(f))
    decision = None
    if summary.get("decision_rate"):
        with open(os.path.join(out, summary["decision_rate"])) as f:
            decision = json.load(f)
    meta = {k: v for k, v in summary.items() if k not in ("runs", "repetitions", "plots", "decision_rate", "plots_note")}
    write_report(out, results, summary["runs"], summary.get("repetitions", []), decision, meta)


HEADLINE_HEADER = (
    "| workload (nodes / measured pods) | throughput pods/s: ours / upstream / null | CPU ms per pod: ours / upstream "
    "| peak RSS MiB: ours / upstream | latency p50 ms: ours / upstream | API server + etcd CPU ms per pod: "
    "ours / upstream / null | machine capacity: ours / upstream / null |\n"
    "|---|---:|---:|---:|---:|---:|---:|\n")


def load_run(out_dir):
    """A finished run's summary.json and its combined results, {workload: {scheduler: result}}."""
    with open(os.path.join(out_dir, "summary.json")) as f:
        summary = json.load(f)
    by = {}
    for name in summary["runs"]:
        with open(os.path.join(out_dir, name)) as f:
            r = json.load(f)
        by.setdefault(r["workload"], {})[r["scheduler"]] = r
    return summary, by


def is_full_run(summary, by):
    """Whether a run is one whole `make bench`: every workload with all three schedulers at full
    size, creation uncapped, and the decision rate; not a smoke run, a check or a profile."""
    return (not summary.get("short") and summary.get("scale") == 1.0 and not summary.get("precreate")
            and not summary.get("create_rate") and bool(summary.get("decision_rate"))
            and set(by) == set(WORKLOADS) and all(set(runs) == set(SCHEDULERS) for runs in by.values()))


def latest_full_run(bench_dir):
    """The newest directory under `bench_dir` (by its UTC-timestamp name) holding a full run, or None."""
    names = sorted((n for n in os.listdir(bench_dir) if os.path.isfile(os.path.join(bench_dir, n, "summary.json"))),
                   reverse=True)
    for name in names:
        if is_full_run(*load_run(os.path.join(bench_dir, name))):
            return name
    return None


def headline_table(out_dir):
    """--headline: the README's headline table (Markdown) of a finished run: each workload's median
    figures for the three schedulers, in the order WORKLOADS lists them."""
    _, by = load_run(out_dir)
    lines = []
    for workload, w in WORKLOADS.items():
        runs = by.get(workload)
        if not runs:
            continue
        any_run = next(iter(runs.values()))
        label = f"{w['label']} {fmt(any_run['nodes'])} / {fmt(any_run['measured_pods'])}".replace(",", "")
        if w.get("churn_interval_ms"):
            label += f", a 9-CPU pod every {w['churn_interval_ms']} ms"
        repeated = max(r.get("median_of", 1) for r in runs.values())
        if repeated > 1:
            label += f" (median of {repeated})"

        def cells(get, which, digits=1):
            return " / ".join(fmt(get(runs[s]) if s in runs else None, digits) for s in which)
        three, two = ("ours", "upstream", "null"), ("ours", "upstream")
        lines.append("| " + " | ".join([
            label,
            cells(lambda r: r.get("throughput", {}).get("average"), three),
            cells(lambda r: r.get("cpu_ms_per_pod"), two),
            cells(lambda r: r["peak_rss_bytes"] / 2**20 if r.get("peak_rss_bytes") else None, two),
            cells(lambda r: r.get("latency_ms", {}).get("p50"), two, 0),
            cells(lambda r: r.get("control_plane_cpu_ms_per_pod"), three),
            cells(lambda r: (r.get("machine_speed") or {}).get("capacity"), three, 0)]) + " |")
    return HEADLINE_HEADER + "\n".join(lines) + "\n"


def verify(out_dir):
    """Sane fields, no timing thresholds. Returns a list of problems."""
    problems = []
    summary_path = os.path.join(out_dir, "summary.json")
    try:
        with open(summary_path) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        return [f"{summary_path}: {e}"]
    if not summary.get("runs"):
        problems.append("summary.json lists no runs")
    for name in summary.get("runs", []) + summary.get("repetitions", []):
        with open(os.path.join(out_dir, name)) as f:
            r = json.load(f)
        tag = name[:-len(".json")]
        if r.get("median_of") and len(r.get("repetitions", [])) != r["median_of"]:
            problems.append(f"{tag}: median of {r['median_of']} runs but {len(r.get('repetitions', []))} listed")
        if r.get("errors"):
            problems.append(f"{tag}: errors: {r['errors']}")
        if r.get("wrapped_by"):
            problems.append(f"{tag}: ours ran under {r['wrapped_by']!r} (a profiling run: CPU and RSS are the wrapper's)")
        m = r.get("measured") or {}
        if not m or m.get("bound") != m.get("created") or m.get("created") != r.get("measured_pods"):
            problems.append(f"{tag}: bound/created/measured {m.get('bound')}/{m.get('created')}/{r.get('measured_pods')}")
        t = r.get("throughput") or {}
        if not t.get("samples") or not t.get("average") or not t["average"] > 0:
            problems.append(f"{tag}: no throughput samples ({t})")
        elif (not (t["perc50"] <= t["perc90"] <= t["perc99"])
              or not min(t["perc50"], min(r["throughput_samples"])) - 0.01 <= t["average"] <= max(r["throughput_samples"]) + 0.01):
            problems.append(f"{tag}: throughput summary inconsistent: {t}")
        lat = r.get("latency_ms") or {}
        if lat.get("n") != m.get("bound") or lat.get("p50") is None or not 0 <= lat["p50"] <= lat["p99"] <= lat["max"]:
            problems.append(f"{tag}: latency summary inconsistent: {lat}")
        cpu = (r.get("cpu_seconds") or {}).get("measured")
        if cpu is None or cpu < 0 or (r.get("cpu_seconds") or {}).get("total", 0) < cpu:
            problems.append(f"{tag}: CPU seconds {r.get('cpu_seconds')}")
        cp = r.get("control_plane_cpu_seconds") or {}
        if set(cp) < {"etcd", "kube-apiserver"} or any(v < 0 for v in cp.values()):
            problems.append(f"{tag}: control-plane CPU seconds {cp}")
        speed = r.get("machine_speed")
        if speed is not None and (not speed.get("probe_units") or not 0 <= speed.get("steal_percent", -1) <= 100
                                  or not speed.get("capacity", 0) > 0):
            problems.append(f"{tag}: machine speed not measured: {speed}")
        if not r.get("peak_rss_bytes") or r["peak_rss_bytes"] < 1 << 20:
            problems.append(f"{tag}: peak RSS {r.get('peak_rss_bytes')}")
        # Upstream's kube-scheduler without leader election returns "finished without leader elect"
        # (exit 1) when SIGTERM ends it (cmd/kube-scheduler/app/server.go); the others exit 0.
        if r.get("scheduler") != "null" and r.get("overcommitted_nodes") != 0:
            problems.append(f"{tag}: {r.get('overcommitted_nodes')} node(s) over capacity or with two anti-affine pods")
        if (r.get("scheduler") != "null" and r.get("workload") in WORKLOADS
                and WORKLOADS[r["workload"]]["measured_template"] == "pod_topology_spreading"
                and "zone_skew" in r  # runs before 2026-12-02 did not record it
                and not (isinstance(r["zone_skew"], int) and 0 <= r["zone_skew"] <= 5)):
            problems.append(f"{tag}: blue pods per zone {r.get('zone_skew')} apart, more than maxSkew 5")
        if r.get("exit_status") != (1 if r.get("scheduler") == "upstream" else 0):
            problems.append(f"{tag}: scheduler exit status {r.get('exit_status')} after SIGTERM")
    if not os.path.exists(os.path.join(out_dir, "results.md")):
        problems.append("results.md missing")
    return problems


# --- main ------------------------------------------------------------------------------------------

COMPARED_FIGURES = (
    ("throughput pods/s", lambda r: (r.get("throughput") or {}).get("average")),
    ("CPU ms/pod", lambda r: r.get("cpu_ms_per_pod")),
    ("peak RSS MiB", lambda r: r.get("peak_rss_bytes") and r["peak_rss_bytes"] / 2**20),
    ("API server + etcd CPU ms/pod", lambda r: r.get("control_plane_cpu_ms_per_pod")),
)


# How --compare takes the machine's own change out of a figure: throughput moves with the capacity
# (probe units per CPU-second net of stolen time); CPU time per pod moves with the probe's CPU ms
# per unit (CPU time excludes stolen time).
SPEED_ADJUSTED = {"throughput pods/s": "capacity", "CPU ms/pod": "probe",
                  "API server + etcd CPU ms/pod": "probe"}


# The ratios the goals of issue #7 are stated in: (label, numerator scheduler, denominator
# scheduler, figure).
GOAL_RATIOS = (
    ("throughput ours/upstream", "ours", "upstream", COMPARED_FIGURES[0][1]),
    ("throughput ours/null", "ours", "null", COMPARED_FIGURES[0][1]),
    ("CPU per pod upstream/ours", "upstream", "ours", COMPARED_FIGURES[1][1]),
    ("peak RSS upstream/ours", "upstream", "ours", COMPARED_FIGURES[2][1]),
)


class _Tally:
    """The differences of one --compare table: counts them, bolds and names those beyond the tolerance."""

    def __init__(self, tolerance):
        self.tolerance, self.compared, self.outside = tolerance, 0, []

    def cell(self, name, diff, text):
        self.compared += 1
        if abs(diff) > self.tolerance:
            self.outside.append(f"{name} {diff:+.1f} %")
            return f"**{text}**"
        return text

    def summary(self, what):
        lines = [f"{self.compared - len(self.outside)} of {self.compared} {what} within ±{self.tolerance:g} %."]
        if self.outside:
            lines.append("Outside: " + "; ".join(self.outside) + ".")
        return lines


def compare_runs(base_dir, rerun_dir, tolerance):
    """A Markdown table: every (workload, scheduler) present in both directories, each figure of
    COMPARED_FIGURES in both runs and the rerun's difference; differences beyond the tolerance are
    marked. The null binder has no CPU or RSS goal but is listed like the others."""
    def load(d):
        runs = {}
        for name in sorted(os.listdir(d)):
            parts = name.split(".")
            if len(parts) == 3 and parts[2] == "json" and parts[1] in SCHEDULERS:
                with open(os.path.join(d, name)) as f:
                    runs[(parts[0], parts[1])] = json.load(f)
        return runs
    base, rerun = load(base_dir), load(rerun_dir)
    keys = [k for k in rerun if k in base]
    probe = lambda r: (r.get("machine_speed") or {}).get("probe_cpu_ms_mean")  # noqa: E731
    capacity = lambda r: (r.get("machine_speed") or {}).get("capacity")  # noqa: E731
    lines = [f"# Reproducibility: {os.path.basename(os.path.normpath(rerun_dir))} against "
             f"{os.path.basename(os.path.normpath(base_dir))}", "",
             f"Command: `python3 bench/scheduler_perf.py --compare {base_dir} {rerun_dir}`. "
             f"Difference = rerun / base - 1; **bold** beyond ±{tolerance:g} %.", "",
             "| workload | scheduler | " + " | ".join(f"{label}: base / rerun (diff)" for label, _ in COMPARED_FIGURES) + " |",
             "|---|---|" + "---:|" * len(COMPARED_FIGURES)]
    raw = _Tally(tolerance)
    for workload, which in keys:
        cells = []
        for label, get in COMPARED_FIGURES:
            a, b = get(base[(workload, which)]), get(rerun[(workload, which)])
            if not a or b is None:
                cells.append("–")
                continue
            diff = 100.0 * (b / a - 1)
            cells.append(raw.cell(f"{workload}.{which} {label}", diff, f"{a:,.1f} / {b:,.1f} ({diff:+.1f} %)"))
        lines.append(f"| {workload} | {which} | " + " | ".join(cells) + " |")
    lines += [""] + raw.summary("figures")
    # The same figures with the machine's own change taken out, where both runs measured it.
    adjusted_rows, adjusted = [], _Tally(tolerance)
    for workload, which in keys:
        a_run, b_run = base[(workload, which)], rerun[(workload, which)]
        if not (probe(a_run) and probe(b_run) and capacity(a_run) and capacity(b_run)):
            continue
        cap_ratio, probe_ratio = capacity(b_run) / capacity(a_run), probe(b_run) / probe(a_run)
        cells = [f"{capacity(a_run):,.1f} / {capacity(b_run):,.1f} ({100 * (cap_ratio - 1):+.1f} %)"]
        for label, get in COMPARED_FIGURES:
            a, b = get(a_run), get(b_run)
            factor = SPEED_ADJUSTED.get(label)
            if factor is None:
                continue
            if not a or b is None:
                cells.append("–")
                continue
            diff = 100.0 * (b / a / (cap_ratio if factor == "capacity" else probe_ratio) - 1)
            cells.append(adjusted.cell(f"{workload}.{which} {label}", diff, f"{diff:+.1f} %"))
        adjusted_rows.append(f"| {workload} | {which} | " + " | ".join(cells) + " |")
    # The goals of issue #7 are ratios between schedulers within one run: the machine's drift
    # between runs cancels in them as far as it hit the schedulers of a workload alike.
    ratio_rows, ratios = [], _Tally(tolerance)
    for workload in sorted({w for w, _ in keys}):
        cells = []
        for label, num, den, get in GOAL_RATIOS:
            pair = [ratio(get(runs.get((workload, num), {})), get(runs.get((workload, den), {})))
                    for runs in (base, rerun)]
            if None in pair or not pair[0]:
                cells.append("–")
                continue
            diff = 100.0 * (pair[1] / pair[0] - 1)
            cells.append(ratios.cell(f"{workload} {label}", diff, f"{pair[0]:,.2f} / {pair[1]:,.2f} ({diff:+.1f} %)"))
        if any(c != "–" for c in cells):
            ratio_rows.append(f"| {workload} | " + " | ".join(cells) + " |")
    if ratio_rows:
        lines += ["", "## The goals' ratios", "",
                  "Each ratio is taken within one run (the schedulers of a workload ran minutes apart on "
                  "identical fresh control planes), then compared between the runs.", "",
                  "| workload | " + " | ".join(f"{label}: base / rerun (diff)" for label, *_ in GOAL_RATIOS) + " |",
                  "|---|" + "---:|" * len(GOAL_RATIOS)]
        lines += ratio_rows
        lines += [""] + ratios.summary("ratios")
    if adjusted_rows:
        lines += ["", "## With the machine's change taken out", "",
                  "Each run measured the machine beside its measured phase (bench/speed_probe.py and "
                  "/proc/stat; see results.md). Throughput is divided by the change of the machine's capacity "
                  "(probe units per CPU-second net of stolen time); CPU per pod, which is CPU time and so "
                  "excludes stolen time, is divided by the change of the probe's CPU ms per unit. Peak RSS "
                  "does not depend on speed and is left out here. These are derived figures: the raw ones "
                  "above are what the runs measured.", "",
                  "| workload | scheduler | machine capacity: base / rerun (diff) | " +
                  " | ".join(f"{label}, adjusted diff" for label in SPEED_ADJUSTED) + " |",
                  "|---|---|---:|" + "---:|" * len(SPEED_ADJUSTED)]
        lines += adjusted_rows
        lines += [""] + adjusted.summary("adjusted figures")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "_create":
        return create_pods_main(sys.argv[2:])
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated names or prefixes")
    p.add_argument("--schedulers", default=",".join(SCHEDULERS))
    p.add_argument("--scale", type=float, default=1.0, help="multiplies node and pod counts")
    p.add_argument("--short", action="store_true", help="tiny sizes (CI smoke)")
    p.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    p.add_argument("--out", help="default docs/bench/<UTC timestamp>")
    p.add_argument("--log-dir", help="default /tmp/ksched-bench-<timestamp>")
    p.add_argument("--v", type=int, default=2, help="scheduler log verbosity (scheduler_perf's default 2)")
    p.add_argument("--creators", type=int, default=4, help="pod-creating processes")
    p.add_argument("--creator-threads", type=int, default=8, help="connections per creating process")
    p.add_argument("--create-rate", type=float, default=None,
                   help="cap on measured pods created per second (default: none; 50 with --short, so that a "
                        "smoke run spans several 1-second samples on any machine)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds to wait for a phase's pods to be bound")
    p.add_argument("--precreate", action="store_true",
                   help="initial pods created bound and measured pods created before the scheduler starts "
                        "(the scheduler's throughput without pod creation competing); latency then counts "
                        "from the scheduler's start")
    p.add_argument("--repeat", type=int, default=0,
                   help="runs per (workload, scheduler), each on a fresh control plane, reporting per-figure "
                        "medians (default: the workload's own count: 5 for the short PodAntiAffinity and GPU "
                        "workloads, 1 for SchedulingBasic 5000 / 50000, 3 for the others; 1 with --short)")
    p.add_argument("--content-type", choices=("application/json", "application/vnd.kubernetes.protobuf"),
                   help="the encoding of the per-pod writes (Binding, Event) for every scheduler: "
                        "clientConnection.contentType for ours and upstream, --kube-api-content-type for the null "
                        "binder (default: theirs, protobuf for all three)")
    p.add_argument("--no-decision-rate", action="store_true")
    p.add_argument("--wrap-ours", metavar="COMMAND",
                   help="prefix ours' command line with this one, for profiling (e.g. 'heaptrack -o /tmp/h' or "
                        "'perf record -g -o /tmp/p.data'); CPU and RSS then measure the wrapper's process, so the run "
                        "is for the profile only, and its JSON records the wrapper under wrapped_by")
    p.add_argument("--verify", action="store_true", help="check the JSON's fields afterwards; exit 1 on a problem")
    p.add_argument("--verify-only", metavar="DIR")
    p.add_argument("--report-only", metavar="DIR",
                   help="write DIR's results.md, plots and summary.json again from its JSON (no run)")
    p.add_argument("--compare", nargs=2, metavar=("BASE_DIR", "RERUN_DIR"),
                   help="compare two result directories figure by figure (throughput, CPU per pod, peak RSS, "
                        "API server + etcd CPU per pod); writes RERUN_DIR/reproducibility.md; exit 0 either way")
    p.add_argument("--tolerance", type=float, default=10.0, help="percent allowed by --compare (default 10)")
    p.add_argument("--headline", metavar="DIR",
                   help="print the README's headline table of a finished run (the README holds it for the newest "
                        "full run in docs/bench; tests/bench/scheduler_perf_test.py checks it)")
    p.add_argument("--list", action="store_true")
    args = p.parse_args()
    if args.headline:
        print(headline_table(os.path.abspath(args.headline)), end="")
        return 0
    if args.list:
        for name, w in WORKLOADS.items():
            print(f"{name}: {w['nodes']} nodes, {w['init']} init, {w['measured']} measured; short {w['short']}; {w['shape']}")
        return 0
    if args.compare:
        text = compare_runs(args.compare[0], args.compare[1], args.tolerance)
        with open(os.path.join(args.compare[1], "reproducibility.md"), "w") as f:
            f.write(text)
        print(text, end="")
        return 0
    if args.report_only:
        rewrite_report(os.path.abspath(args.report_only))
        return 0
    if args.verify_only:
        problems = verify(args.verify_only)
        for problem in problems:
            print(f"verify: {problem}", file=sys.stderr)
        print("verify: ok" if not problems else f"verify: {len(problems)} problem(s)")
        return 1 if problems else 0

    if args.repeat < 0:
        p.error("--repeat must be >= 1 (0: each workload's own count)")
    args.build_dir = os.path.abspath(args.build_dir)
    if args.create_rate is None:
        args.create_rate = 50.0 if args.short else 0.0
    workloads = []
    for item in filter(None, args.workloads.split(",")):
        matched = [w for w in WORKLOADS if w == item or w.startswith(item)]
        if not matched:
            p.error(f"unknown workload {item!r} (see --list)")
        workloads += [w for w in matched if w not in workloads]
    schedulers = [s for s in args.schedulers.split(",") if s]
    for s in schedulers:
        if s not in SCHEDULERS:
            p.error(f"unknown scheduler {s!r}: one of {', '.join(SCHEDULERS)}")
    binaries = {"ours": os.path.join(args.build_dir, "scheduler", "kube-scheduler-cpp"),
                "null": os.path.join(args.build_dir, "bench", "ksched-null-binder")}
    for s in schedulers:
        if s in binaries and not os.access(binaries[s], os.X_OK):
            p.error(f"missing {binaries[s]} (build it, or pass --build-dir)")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = os.path.abspath(args.out or os.path.join(REPO, "docs", "bench", stamp))
    log_dir = os.path.abspath(args.log_dir or f"/tmp/ksched-bench-{stamp}")
    os.makedirs(out, exist_ok=True)
    os.makedirs(log_dir, exist_ok=True)
    meta = {"started": stamp, "command": " ".join(shlex.quote(a) for a in [os.path.relpath(__file__, REPO)] + sys.argv[1:]),
            "machine": machine(), "short": args.short, "scale": args.scale, "precreate": args.precreate,
            "content_type": args.content_type, "create_rate": args.create_rate, "repeat": args.repeat or None, "log_dir": log_dir}
    log(f"output {out}, logs {log_dir}; workloads {', '.join(workloads)}; schedulers {', '.join(schedulers)}")

    results, names, repetition_names = [], [], []
    for workload in workloads:
        repeat = args.repeat or (1 if args.short else WORKLOADS[workload].get("repeat", 1))

        def file_of(which, k):  # one run's JSON, OUT/<workload>.<scheduler>[.run<K>].json
            return f"{workload}.{which}.json" if repeat == 1 else f"{workload}.{which}.run{k}.json"

        def one(which, k):
            if repeat > 1:
                log(f"{workload}.{which}: repetition {k} of {repeat}")
            r = run_one(workload, which, args, log_dir if repeat == 1 else os.path.join(log_dir, f"run{k}"))
            r["machine"] = meta["machine"]
            r["command"] = meta["command"]
            if repeat > 1:
                r["round"] = k
                with open(os.path.join(out, file_of(which, k)), "w") as f:
                    json.dump(r, f, indent=1)
            return r

        reps = run_rounds(schedulers, repeat, one)
        rep_names = {which: [file_of(which, k) for k in range(1, repeat + 1)] for which in schedulers}
        for which in schedulers:
            r = combine_repetitions(reps[which], rep_names[which])
            name = f"{workload}.{which}.json"
            with open(os.path.join(out, name), "w") as f:
                json.dump(r, f, indent=1)
            results.append(r)
            names.append(name)
            if repeat > 1:
                repetition_names += rep_names[which]

    decision = None
    rate_bin = os.path.join(args.build_dir, "bench", "ksched_decision_rate")
    if not args.no_decision_rate:
        if os.access(rate_bin, os.X_OK):
            # Its timed loop lasts a fraction of a second, so the machine's moment shows (29k and
            # 48k pods/s in two full runs of the same code): run it DECISION_RATE_RUNS times, report
            # the median per size.
            reports = []
            for k in range(1, 1 + (1 if args.short else DECISION_RATE_RUNS)):
                json_path = os.path.join(out, f"decision_rate.run{k}.json")
                cmd = [rate_bin, "--json", json_path]
                if args.short:
                    cmd += ["--nodes", "500", "--pods", "300", "--warmup", "50"]
                log("in-process decision rate: " + " ".join(cmd))
                done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
                sys.stderr.write(done.stdout)
                if done.returncode == 0:
                    with open(json_path) as f:
                        reports.append(json.load(f))
            if reports:
                decision = combine_decision_rates(reports)
                decision["command"] = " ".join(shlex.quote(c) for c in [os.path.relpath(rate_bin, REPO)] + cmd[1:])
                if len(reports) > 1:
                    decision["command"] += f" (run {len(reports)} times, decision_rate.run<K>.json)"
                with open(os.path.join(out, "decision_rate.json"), "w") as f:
                    json.dump(decision, f, indent=1)
        else:
            log(f"no {rate_bin}: decision rate skipped")

    write_report(out, results, names, repetition_names, decision, meta)
    print(out)
    if args.verify:
        problems = verify(out)
        for problem in problems:
            print(f"verify: {problem}", file=sys.stderr)
        if problems:
            return 1
        print("verify: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
