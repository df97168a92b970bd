#!/usr/bin/env python3
"""Fake nodes for the local control plane: create N Ready nodes, count them, delete them.

No kubelet runs: a node created with status keeps it (only kubelets and the node-lifecycle
controller change conditions), so these nodes stay Ready and schedulable for as long as the run.

  nodes.py create --env RUN/env --count 5000 [--prefix node] [--cpu 4] [--memory 32Gi] [--pods 110]
                  [--ephemeral-storage 100Gi] [--resource nvidia.com/gpu=8] [--label k=v]
                  [--taint key=value:NoSchedule] [--zones 3] [--workers 16]
  nodes.py delete --env RUN/env [--prefix node]     (one deletecollection by the node-set label)
  nodes.py count  --env RUN/env [--prefix node]

Every node carries the label kube-scheduler-cpp.test/node-set=<prefix>, which delete and count
select on. Talks only to a loopback API server (refuses any other address), with the admin client
certificate of the run (--env) or --server/--ca/--cert/--key. Exit 1 with a message on failure.
Standard library only.
"""
import argparse
import concurrent.futures
import datetime
import http.client
import ipaddress
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse

NODE_SET_LABEL = "kube-scheduler-cpp.test/node-set"
EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


def die(message):
    print(f"nodes.py: {message}", file=sys.stderr)
    sys.exit(1)


def read_env(path):
    values = {}
    try:
        with open(path) as f:
            for line in f:
                key, sep, value = line.strip().partition("=")
                if sep:
                    values[key] = value
    except OSError as e:
        die(f"cannot read env file {path}: {e.strerror}")
    return values


def require_loopback(url):
    parsed = urllib.parse.urlsplit(url)
    host = parsed.hostname or ""
    if parsed.scheme != "https":
        die(f"server {url}: only https is supported")
    if host == "localhost":
        return parsed
    try:
        if ipaddress.ip_address(host).is_loopback:
            return parsed
    except ValueError:
        pass
    die(f"server {url}: refusing a non-loopback address (tests talk to 127.0.0.1 only)")


class Api:
    """A keep-alive HTTPS connection per thread to one loopback API server."""

    def __init__(self, server, ca, cert, key):
        self.url = require_loopback(server)
        self.context = ssl.create_default_context(cafile=ca)
        self.context.load_cert_chain(cert, key)
        self.local = threading.local()

    def _conn(self):
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = http.client.HTTPSConnection(self.url.hostname, self.url.port or 443,
                                               context=self.context, timeout=60)
            self.local.conn = conn
        return conn

    def request(self, method, path, body=None, retries=5, content_type="application/json"):
        """Retries connection errors, 429 and 5xx RETRIES times (waits doubling up to 2 s); returns
        (status, decoded body)."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Accept": "application/json", "User-Agent": "kube-scheduler-cpp-test-nodes"}
        if data is not None:
            headers["Content-Type"] = content_type
        delay = 0.1
        for attempt in range(retries + 1):
            try:
                conn = self._conn()
                conn.request(method, path, body=data, headers=headers)
                resp = conn.getresponse()
                payload = resp.read()
            except (OSError, http.client.HTTPException) as e:
                self.local.conn = None
                if attempt == retries:
                    raise RuntimeError(f"{method} {path}: {e}") from e
                time.sleep(delay); delay = min(2.0, delay * 2)
                continue
            if resp.status == 429 or resp.status >= 500:
                if attempt < retries:
                    time.sleep(min(2.0, float(resp.getheader("Retry-After") or delay))); delay = min(2.0, delay * 2)
                    continue
            return resp.status, json.loads(payload) if payload else {}
        raise AssertionError("unreachable")


def parse_quantity_pairs(items, what):
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            die(f"{what} {item!r}: expected NAME=VALUE")
        out[key] = value
    return out


def parse_taint(text):
    body, sep, effect = text.rpartition(":")
    if not sep or effect not in EFFECTS:
        die(f"taint {text!r}: expected key[=value]:Effect with Effect one of {', '.join(EFFECTS)}")
    key, _, value = body.partition("=")
    if not key:
        die(f"taint {text!r}: empty key")
    taint = {"key": key, "effect": effect}
    if value:
        taint["value"] = value
    return taint


def node_object(name, args, index, now):
    labels = {
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        NODE_SET_LABEL: args.prefix,
    }
    if args.zones:
        labels["topology.kubernetes.io/zone"] = f"zone-{index % args.zones}"
    labels.update(parse_quantity_pairs(args.label, "label"))
    capacity = {"cpu": args.cpu, "memory": args.memory, "pods": args.pods}
    if args.ephemeral_storage:
        capacity["ephemeral-storage"] = args.ephemeral_storage
    capacity.update(parse_quantity_pairs(args.resource, "resource"))
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "spec": {},
        "status": {
            "capacity": capacity,
            "allocatable": dict(capacity),
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                            "message": "fake node created by kube-scheduler-cpp tests",
                            "lastHeartbeatTime": now, "lastTransitionTime": now}],
            "phase": "Running",
        },
    }
    taints = [parse_taint(t) for t in args.taint]
    if taints:
        node["spec"]["taints"] = taints
    return node


def create(api, args):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    names = [f"{args.prefix}-{i}" for i in range(args.start, args.start + args.count)]
    for i, name in enumerate(names[:1]):  # validate the arguments once, before any request
        node_object(name, args, args.start + i, now)

    def one(i_name):
        i, name = i_name
        status, body = api.request("POST", "/api/v1/nodes", node_object(name, args, args.start + i, now))
        if status == 201:
            return None
        if status == 409 and args.ignore_existing:
            return None
        return f"{name}: HTTP {status}: {body.get('message', body)}"

    started = time.monotonic()
    errors = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.workers) as pool:
        for error in pool.map(one, enumerate(names)):
            if error:
                errors.append(error)
    elapsed = time.monotonic() - started
    if errors:
        for e in errors[:5]:
            print(f"nodes.py: {e}", file=sys.stderr)
        die(f"{len(errors)} of {len(names)} node creations failed")
    rate = len(names) / elapsed if elapsed > 0 else float("inf")
    print(f"created {len(names)} nodes ({args.prefix}-{args.start}..{args.start + args.count - 1}) "
          f"in {elapsed:.1f}s ({rate:.0f} nodes/s, {args.workers} workers)")


def selector_path(prefix, extra=""):
    return f"/api/v1/nodes?labelSelector={urllib.parse.quote(f'{NODE_SET_LABEL}={prefix}')}{extra}"


def count(api, args, quiet=False):
    status, body = api.request("GET", selector_path(args.prefix))
    if status != 200:
        die(f"listing nodes: HTTP {status}: {body.get('message', body)}")
    n = len(body.get("items", []))
    if not quiet:
        print(n)
    return n


def delete(api, args):
    started = time.monotonic()
    status, body = api.request("DELETE", selector_path(args.prefix))
    if status != 200:
        die(f"deleting nodes: HTTP {status}: {body.get('message', body)}")
    deleted = len(body.get("items", []))
    left = count(api, args, quiet=True)
    if left:
        die(f"{left} nodes of set {args.prefix!r} remain after delete")
    print(f"deleted {deleted} nodes of set {args.prefix!r} in {time.monotonic() - started:.1f}s")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["create", "delete", "count"])
    parser.add_argument("--env", help="env file written by start.sh")
    parser.add_argument("--server")
    parser.add_argument("--ca")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--prefix", default="node")
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first node index")
    parser.add_argument("--cpu", default="4")
    parser.add_argument("--memory", default="32Gi")
    parser.add_argument("--pods", default="110")
    parser.add_argument("--ephemeral-storage", default="")
    parser.add_argument("--resource", action="append", default=[], help="extended resource NAME=QTY")
    parser.add_argument("--label", action="append", default=[], help="extra label KEY=VALUE")
    parser.add_argument("--taint", action="append", default=[], help="key[=value]:Effect")
    parser.add_argument("--zones", type=int, default=0, help="spread topology.kubernetes.io/zone over N zones")
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--ignore-existing", action="store_true")
    args = parser.parse_args()
    if args.count < 0 or args.workers < 1:
        die("--count must be >= 0 and --workers >= 1")

    env = read_env(args.env) if args.env else {}
    pki = env.get("PKI_DIR", "")
    server = args.server or env.get("APISERVER_URL")
    ca = args.ca or (pki and os.path.join(pki, "ca.crt"))
    cert = args.cert or (pki and os.path.join(pki, "admin.crt"))
    key = args.key or (pki and os.path.join(pki, "admin.key"))
    if not (server and ca and cert and key):
        die("give --env RUN/env, or --server, --ca, --cert and --key")
    try:
        api = Api(server, ca, cert, key)
    except (OSError, ssl.SSLError) as e:
        die(f"loading TLS files ({ca}, {cert}, {key}): {e}")
    try:
        {"create": create, "delete": delete, "count": count}[args.action](api, args)
    except RuntimeError as e:
        die(str(e))


if __name__ == "__main__":
    main()
