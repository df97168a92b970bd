#!/usr/bin/env python3
"""Helpers of metrics_plugins_test.sh (standard library only, loopback only).

  exporters CONFIG.json   serve fake node_exporters, one HTTP port per node, until killed. CONFIG:
                          {"nodes": [{"port": P, "nodename": N, "idle": 0.5, "mem_avail_pct": 50,
                          "fs_free_pct": 50, "disk_bps": 1e6, "net_bps": 1e6}, ...]}; every value
                          not given takes the default above. Counters grow at the given rates from
                          the process start, as a real node_exporter's would.
  pods --env ENV --prefix P --count N --rate R --scheduler S [--selector k=v]
                          create N pods (no requests) at R pods/s through the API server
  placements --env ENV --prefix P
                          print "pod node" for every pod whose name starts with P (node "-" if unbound)
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "controlplane"))
import nodes  # noqa: E402  (the control plane's API client)

DEFAULTS = {"idle": 0.5, "mem_avail_pct": 50.0, "fs_free_pct": 50.0, "disk_bps": 1e6, "net_bps": 1e6}
START = time.time()


def exposition(node):
    v = dict(DEFAULTS)
    v.update(node)
    t = time.time() - START + 1000.0  # counters as if the exporter had been up for a while
    mem_total = 16 * 2**30
    fs_size = 100 * 2**30
    cpus = 4
    lines = [
        "# TYPE node_uname_info gauge",
        'node_uname_info{domainname="(none)",machine="x86_64",nodename="%s",release="6.1.0",'
        'sysname="Linux",version="#1 SMP"} 1' % v["nodename"],
        "# TYPE node_cpu_seconds_total counter",
    ]
    for cpu in range(cpus):
        lines.append('node_cpu_seconds_total{cpu="%d",mode="idle"} %.3f' % (cpu, v["idle"] * t))
        lines.append('node_cpu_seconds_total{cpu="%d",mode="user"} %.3f' % (cpu, (1 - v["idle"]) * t))
    lines += [
        "# TYPE node_memory_MemAvailable_bytes gauge",
        "node_memory_MemAvailable_bytes %d" % int(mem_total * v["mem_avail_pct"] / 100),
        "# TYPE node_memory_MemTotal_bytes gauge",
        "node_memory_MemTotal_bytes %d" % mem_total,
        "# TYPE node_filesystem_avail_bytes gauge",
        'node_filesystem_avail_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} %d'
        % int(fs_size * v["fs_free_pct"] / 100),
        'node_filesystem_avail_bytes{device="tmpfs",fstype="tmpfs",mountpoint="/run"} %d' % (2**30),
        "# TYPE node_filesystem_size_bytes gauge",
        'node_filesystem_size_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} %d' % fs_size,
        'node_filesystem_size_bytes{device="tmpfs",fstype="tmpfs",mountpoint="/run"} %d' % (2**30),
        "# TYPE node_disk_read_bytes_total counter",
        'node_disk_read_bytes_total{device="sda"} %d' % int(v["disk_bps"] / 2 * t),
        "# TYPE node_disk_written_bytes_total counter",
        'node_disk_written_bytes_total{device="sda"} %d' % int(v["disk_bps"] / 2 * t),
        "# TYPE node_disk_io_time_seconds_total counter",
        'node_disk_io_time_seconds_total{device="sda"} %.3f' % (0.1 * t),
        "# TYPE node_network_receive_bytes_total counter",
        'node_network_receive_bytes_total{device="eth0"} %d' % int(v["net_bps"] / 2 * t),
        'node_network_receive_bytes_total{device="lo"} %d' % int(5e8 * t),
        "# TYPE node_network_transmit_bytes_total counter",
        'node_network_transmit_bytes_total{device="eth0"} %d' % int(v["net_bps"] / 2 * t),
        'node_network_transmit_bytes_total{device="lo"} %d' % int(5e8 * t),
    ]
    return ("\n".join(lines) + "\n").encode()


def serve_exporters(config_path):
    with open(config_path) as f:
        config = json.load(f)
    servers = []
    for node in config["nodes"]:
        class Handler(BaseHTTPRequestHandler):
            spec = node

            def do_GET(self):
                if self.path != "/metrics":
                    self.send_error(404)
                    return
                body = exposition(self.spec)
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", node["port"]), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    print("serving %d exporters" % len(servers), flush=True)
    while True:
        time.sleep(3600)


def api_from_env(path):
    env = nodes.read_env(path)
    pki = env["PKI_DIR"]
    return nodes.Api(env["APISERVER_URL"], os.path.join(pki, "ca.crt"),
                     os.path.join(pki, "admin.crt"), os.path.join(pki, "admin.key"))


def create_pods(args):
    api = api_from_env(args.env)
    selector = dict(kv.split("=", 1) for kv in args.selector)
    start = time.monotonic()
    for i in range(args.count):
        due = start + i / args.rate
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        pod = {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "%s-%d" % (args.prefix, i), "namespace": "default"},
            "spec": {"schedulerName": args.scheduler, "nodeSelector": selector,
                     "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10"}]},
        }
        status, body = api.request("POST", "/api/v1/namespaces/default/pods", pod)
        if status != 201:
            nodes.die("creating pod %s: HTTP %d %s" % (pod["metadata"]["name"], status, body))
    print("created %d pods in %.1f s" % (args.count, time.monotonic() - start))


def placements(args):
    api = api_from_env(args.env)
    status, body = api.request("GET", "/api/v1/namespaces/default/pods")
    if status != 200:
        nodes.die("listing pods: HTTP %d" % status)
    for pod in body["items"]:
        name = pod["metadata"]["name"]
        if name.startswith(args.prefix):
            print(name, pod["spec"].get("nodeName") or "-")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("exporters")
    e.add_argument("config")
    p = sub.add_parser("pods")
    p.add_argument("--env", required=True)
    p.add_argument("--prefix", required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--rate", type=float, required=True)
    p.add_argument("--scheduler", required=True)
    p.add_argument("--selector", action="append", default=[])
    q = sub.add_parser("placements")
    q.add_argument("--env", required=True)
    q.add_argument("--prefix", required=True)
    args = parser.parse_args()
    if args.cmd == "exporters":
        serve_exporters(args.config)
    elif args.cmd == "pods":
        create_pods(args)
    else:
        placements(args)


if __name__ == "__main__":
    main()
