"""The chaos suite's watcher: follows every pod of one namespace and every node through a list + watch
of its own (re-watching from the last resourceVersion after a cut, relisting after 410 Gone), and
checks the scheduling invariants at each event, not only at the end:

  overcommit  after every event that changes a node's pods or the node: the bound pods' cpu, memory
              and count within the node's allocatable;
  gone-node   when a pod is first seen bound: its node exists, is not cordoned and has no NoSchedule
              or NoExecute taint, or became so less than `grace` seconds before;
  double-bound  a UID seen on two nodes; at the end (check_events) a pod with two Scheduled events.

Violations are recorded (kind, message, count), never raised: the caller reports them. Thread-safe:
one lock guards the state; the two watch threads and the scenario's thread share it.
"""
import http.client
import json
import threading
import time
import urllib.parse

_SUFFIX = {"m": 0.001, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3,
           "Ti": 1024 ** 4}


def parse_quantity(text):
    """The few Quantity shapes the scenarios use ("250m", "2", "128Mi", "4Gi"), as a float."""
    text = str(text)
    for suffix in ("Ki", "Mi", "Gi", "Ti", "m", "k", "M", "G", "T"):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * _SUFFIX[suffix]
    return float(text)


def _requests(pod):
    cpu = mem = 0.0
    for c in pod.get("spec", {}).get("containers", []):
        req = (c.get("resources") or {}).get("requests") or {}
        cpu += parse_quantity(req.get("cpu", "0"))
        mem += parse_quantity(req.get("memory", "0"))
    return cpu, mem


class Watcher:
    def __init__(self, api, namespace, grace):
        self.api, self.namespace, self.grace = api, namespace, grace
        self.lock = threading.Lock()
        self.pods = {}          # name -> {"uid", "node", "cpu", "mem"}
        self.nodes = {}         # name -> {"cpu", "mem", "pods", "blocked_since" (None or time)}
        self.gone = {}          # node name -> time its deletion was seen
        self.uid_node = {}      # uid -> node it was first seen bound to
        self.violations = []    # (kind, message)
        self.counts = {}
        self.over = set()       # nodes currently reported over their allocatable (reported once per episode)
        self.relists = 0
        self.stopping = False
        self.ready = {"pods": threading.Event(), "nodes": threading.Event()}
        self.threads = [threading.Thread(target=self._follow, args=(kind,), daemon=True) for kind in ("pods", "nodes")]
        for t in self.threads:
            t.start()
        for kind, ev in self.ready.items():
            if not ev.wait(60):
                raise RuntimeError(f"the watcher could not list {kind}")

    # --- recording -------------------------------------------------------------------------------------
    def violation(self, kind, message, count=1):
        with self.lock:
            self._violation(kind, message, count)

    def _violation(self, kind, message, count=1):
        self.violations.append(f"{kind}: {message}")
        self.counts[kind] = self.counts.get(kind, 0) + count

    # --- list + watch ----------------------------------------------------------------------------------
    def _path(self, kind):
        return f"/api/v1/namespaces/{self.namespace}/pods" if kind == "pods" else "/api/v1/nodes"

    def _follow(self, kind):
        rv = None
        while not self.stopping:
            try:
                if rv is None:
                    status, body = self.api.request("GET", self._path(kind), retries=1000)
                    if status != 200:
                        time.sleep(0.5)
                        continue
                    rv = body["metadata"]["resourceVersion"]
                    self._replace(kind, body.get("items", []))
                    self.ready[kind].set()
                rv = self._watch(kind, rv)
            except Exception:  # noqa: BLE001  a cut connection, a frozen server: watch again
                time.sleep(0.5)

    def _watch(self, kind, rv):
        """Streams events from RV; returns the RV to go on from, or None to relist."""
        url = self.api.url
        conn = http.client.HTTPSConnection(url.hostname, url.port, context=self.api.context, timeout=90)
        query = urllib.parse.urlencode({"watch": "1", "resourceVersion": rv, "allowWatchBookmarks": "true",
                                        "timeoutSeconds": "300"})
        try:
            conn.request("GET", f"{self._path(kind)}?{query}", headers={"Accept": "application/json"})
            resp = conn.getresponse()
            if resp.status == 410:
                self.relists += 1
                return None
            if resp.status != 200:
                time.sleep(0.5)
                return rv
            while not self.stopping:
                line = resp.readline()
                if not line:
                    return rv
                event = json.loads(line)
                obj = event.get("object") or {}
                if event.get("type") == "ERROR":
                    if obj.get("code") == 410:
                        self.relists += 1
                        return None
                    return rv
                rv = (obj.get("metadata") or {}).get("resourceVersion", rv)
                if event.get("type") == "BOOKMARK":
                    continue
                with self.lock:
                    if kind == "pods":
                        self._pod_event(event["type"], obj)
                    else:
                        self._node_event(event["type"], obj)
            return rv
        finally:
            conn.close()

    def _replace(self, kind, items):
        """A relist: the differences from the known state become events, then the state is the list's."""
        with self.lock:
            known = self.pods if kind == "pods" else self.nodes
            listed = {i["metadata"]["name"]: i for i in items}
            for name in [n for n in known if n not in listed]:
                gone = {"metadata": {"name": name}}
                self._pod_event("DELETED", gone) if kind == "pods" else self._node_event("DELETED", gone)
            for obj in items:
                self._pod_event("MODIFIED", obj) if kind == "pods" else self._node_event("MODIFIED", obj)

    # --- state and invariants (under the lock) ----------------------------------------------------------
    def _pod_event(self, type_, pod):
        name = pod["metadata"]["name"]
        old = self.pods.pop(name, None)
        touched = {old["node"]} if old and old["node"] else set()
        if type_ != "DELETED":
            uid = pod["metadata"].get("uid")
            node = (pod.get("spec") or {}).get("nodeName") or ""
            cpu, mem = _requests(pod)
            self.pods[name] = {"uid": uid, "node": node, "cpu": cpu, "mem": mem}
            if node:
                touched.add(node)
                first = self.uid_node.setdefault(uid, node)
                if first != node:
                    self._violation("double-bound", f"pod {name} (uid {uid}) seen on {first}, then on {node}")
                newly_bound = not (old and old["uid"] == uid and old["node"] == node)
                if newly_bound:
                    self._check_target(name, node)
        for node in touched:
            self._check_node(node)

    def _check_target(self, pod, node):
        now = time.monotonic()
        if node in self.gone and now - self.gone[node] > self.grace:
            self._violation("gone-node", f"pod {pod} bound to {node}, deleted {now - self.gone[node]:.1f} s earlier")
        n = self.nodes.get(node)
        if n and n["blocked_since"] is not None and now - n["blocked_since"] > self.grace:
            self._violation("gone-node", f"pod {pod} bound to {node}, cordoned or tainted "
                                         f"{now - n['blocked_since']:.1f} s earlier")

    def _node_event(self, type_, node):
        name = node["metadata"]["name"]
        if type_ == "DELETED":
            if self.nodes.pop(name, None) is not None:
                self.gone[name] = time.monotonic()
            return
        self.gone.pop(name, None)
        spec = node.get("spec") or {}
        alloc = (node.get("status") or {}).get("allocatable") or {}
        blocked = bool(spec.get("unschedulable")) or any(
            t.get("effect") in ("NoSchedule", "NoExecute") for t in spec.get("taints") or [])
        old = self.nodes.get(name)
        since = None
        if blocked:
            since = old["blocked_since"] if old and old["blocked_since"] is not None else time.monotonic()
        self.nodes[name] = {"cpu": parse_quantity(alloc.get("cpu", "0")), "mem": parse_quantity(alloc.get("memory", "0")),
                            "pods": parse_quantity(alloc.get("pods", "0")), "blocked_since": since}
        self._check_node(name)

    def _used(self, node):
        cpu = mem = count = 0
        for p in self.pods.values():
            if p["node"] == node:
                cpu += p["cpu"]
                mem += p["mem"]
                count += 1
        return cpu, mem, count

    def _check_node(self, name):
        n = self.nodes.get(name)
        if not n:
            return
        cpu, mem, count = self._used(name)
        over = []
        if cpu > n["cpu"] + 1e-9:
            over.append(f"cpu {cpu * 1000:.0f}m of {n['cpu'] * 1000:.0f}m")
        if mem > n["mem"]:
            over.append(f"memory {mem / 2 ** 20:.0f}Mi of {n['mem'] / 2 ** 20:.0f}Mi")
        if count > n["pods"]:
            over.append(f"pods {count} of {n['pods']:.0f}")
        if over and name not in self.over:
            self.over.add(name)
            self._violation("overcommit", f"node {name}: " + ", ".join(over))
        elif not over:
            self.over.discard(name)

    # --- queries for the scenarios ------------------------------------------------------------------------
    def bound_count(self):
        with self.lock:
            return sum(1 for p in self.pods.values() if p["node"])

    def bound_pods(self):
        with self.lock:
            return {name: p["node"] for name, p in self.pods.items() if p["node"]}

    def node_names(self):
        with self.lock:
            return sorted(self.nodes)

    def node_with_room(self, cpu, memory, exclude=None):
        cpu, mem = parse_quantity(cpu), parse_quantity(memory)
        with self.lock:
            for name in sorted(self.nodes):
                n = self.nodes[name]
                used = self._used(name)
                if name != exclude and used[0] + cpu <= n["cpu"] and used[1] + mem <= n["mem"]:
                    return name
        return None

    def pending_that_fit(self):
        """(pod, node) for every pending pod that fits a live, schedulable, untainted node now."""
        out = []
        with self.lock:
            free = {}
            for name, n in self.nodes.items():
                if n["blocked_since"] is None:
                    cpu, mem, count = self._used(name)
                    free[name] = (n["cpu"] - cpu, n["mem"] - mem, n["pods"] - count)
            for pod, p in sorted(self.pods.items()):
                if p["node"]:
                    continue
                for name, (cpu, mem, count) in free.items():
                    if p["cpu"] <= cpu + 1e-9 and p["mem"] <= mem and count >= 1:
                        out.append((pod, name))
                        break
        return out

    def check_events(self):
        """Double binding as the API records it: two Scheduled events for one pod UID."""
        status, body = self.api.request("GET", f"/apis/events.k8s.io/v1/namespaces/{self.namespace}/events",
                                        retries=20)
        if status != 200:
            self.violation("harness", f"listing events: HTTP {status}")
            return
        per_uid = {}
        for e in body.get("items", []):
            if e.get("reason") == "Scheduled":
                uid = (e.get("regarding") or {}).get("uid")
                per_uid.setdefault(uid, []).append(e)
        for uid, events in per_uid.items():
            count = sum((e.get("series") or {}).get("count", 1) for e in events)
            if count > 1:
                name = (events[0].get("regarding") or {}).get("name")
                self.violation("double-bound", f"pod {name} (uid {uid}) has {count} Scheduled events: "
                                               + "; ".join(e.get("note", "")[:80] for e in events))

    def summary(self):
        with self.lock:
            bound = sum(1 for p in self.pods.values() if p["node"])
            return {"bound": bound, "pending": len(self.pods) - bound, "counts": dict(self.counts),
                    "violations": list(self.violations), "relists": self.relists}

    def stop(self):
        self.stopping = True
