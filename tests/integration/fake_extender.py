#!/usr/bin/env python3
"""A fake HTTP scheduler extender for extender_test.sh (standard library only, loopback only).

  fake_extender.py serve --env RUN/env --log CALLS.jsonl [--port 0] [--port-file FILE]
                         [--broken PREFIX]... [--go-keys PREFIX]... [--preempt-none PREFIX]...
                         [--tls-cert PEM --tls-key PEM [--tls-client-ca PEM]]
      Serve on 127.0.0.1:PORT (0: any free port, written to --port-file once listening) until
      killed; HTTPS with --tls-cert/--tls-key, and then, with --tls-client-ca, only to clients
      presenting a certificate that CA signed (a handshake that fails is logged to stderr, not as
      a call; a call's log line then carries client_cn, the client certificate's common name). Every URL is /PREFIX/VERB: each PREFIX is one extender "instance" (e.g. /ours-a/filter,
      /upstream-a/filter), VERB one of filter, prioritize, bind, preempt (anything else: 404).
  fake_extender.py calls CALLS.jsonl [--prefix P] [--prefix-start S] [--verb V] [--pod NS/NAME]
                         [--strip WHO-] [--field NAME]
      Print one tab-separated line per logged call: prefix verb pod args count status keys, and for
      a preempt call an eighth column, victims (the number of victim pods in the request)
      (--strip removes WHO- from the start of prefix and pod names, so that ours' and upstream's
      calls compare as text). --field NAME prints instead the JSON of that field of each logged
      call (keys sorted; null when absent), e.g. --field victim_uids or --field kept.

Behaviour (deterministic, from node labels; the same for every prefix that is not broken):
  filter      nodes labelled ext.test/reject=true       -> FailedNodes "rejected by fake extender"
              nodes labelled ext.test/unresolvable=true -> FailedAndUnresolvableNodes
                                                           "unresolvable for fake extender"
              nodes labelled ext.test/reject-nodenames=true, only when the request carries node
              NAMES (a nodeCacheCapable extender) -> FailedNodes
                                                           "rejected by fake extender (nodenames)"
              every other node passes, returned as a NodeList ("nodes": the node objects as
              received) or as names ("nodeNames"), the way the request carried them.
  prioritize  score 10 for nodes labelled ext.test/favourite=true, 0 otherwise
              (a HostPriorityList [{"host": ..., "score": ...}]).
  bind        POST a v1 Binding podNamespace/podName (uid podUID, target node) to the API server
              of --env (https, admin client certificate, loopback only), annotated
              ext.test/bound-by=PREFIX (the API server copies a Binding's annotations to the pod);
              answers {} or {"error": "..."}.
  preempt     (ExtenderPreemptionArgs: Pod, NodeNameToVictims with whole pods, or, from a
              nodeCacheCapable scheduler, NodeNameToMetaVictims with pod UIDs) keeps only the
              candidate nodes labelled ext.test/preempt-here=true, each with its victims unchanged
              (the UIDs of the request: MetaPod UID, or a whole pod's metadata.uid) and its
              NumPDBViolations, answering an ExtenderPreemptionResult {"nodeNameToMetaVictims":
              {NODE: {"pods": [{"uid": ...}], "numPDBViolations": N}}} (the answer is always
              meta victims). A --preempt-none PREFIX keeps no node: {"nodeNameToMetaVictims": {}}.
  A --broken PREFIX answers HTTP 500 to everything.
When the request carries only node names (nodeCacheCapable), the labels come from the API server
(GET /api/v1/nodes, once per request); a preempt request carries only node names (the keys of its
map) and always reads the labels there. The nodes of extender_test.sh are also NAMED after their
labels (ext-fav-*, ext-rej-*, ext-unres-*, ext-nnrej-*, ext-plain-*; ext-pre*-N with N = 1 for
ext.test/preempt-here=true), only to make logs readable:
the labels decide.

Requests are read case-insensitively, as Go's encoding/json reads them (upstream sends "Pod",
"Nodes", "NodeNames", "PodName", ... since the wire types have no json tags). Answers use
lower-camel keys ("nodes", "failedNodes", "host", "score", "error", "nodeNameToMetaVictims", "pods",
"uid", "numPDBViolations") except for a --go-keys PREFIX, which answers with Go's field names
("Nodes", "NodeNames", "FailedNodes", "Host", "Score", "Error", "NodeNameToMetaVictims", "Pods",
"UID", "NumPDBViolations"),
as an extender written in Go with the k8s.io/kube-scheduler/extender/v1 types does.

Every request is logged as one JSON line: time, prefix, verb, pod ("namespace/name"), args
("nodes", "nodenames", "both" or "none": which of Nodes / NodeNames was non-null; for preempt
"victims", "metavictims", "both" or "none": which of NodeNameToVictims / NodeNameToMetaVictims was
non-null), count (number of nodes in the request), keys (the request's top-level keys with a
non-null value, as sent), pod_object_keys and pod_meta_keys (the non-null keys of the Pod argument
and of its metadata, as sent), status (the HTTP status answered), and the verb's outcome (passed,
failed, unresolvable, scores, node, error; for preempt: victims, the number of victim pods in the
request, victim_uids {node: [uid, ...]}, victim_names {node: ["ns/name", ...]} (whole pods only),
pdb {node: NumPDBViolations}, victim_keys and pod_keys (the non-null keys of the Victims /
MetaVictims objects and of their pods, as sent) and kept, the nodes answered).
"""
import argparse
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "controlplane"))
import nodes  # noqa: E402  (the control plane's loopback-only API client)

REJECT = "ext.test/reject"
UNRESOLVABLE = "ext.test/unresolvable"
REJECT_NODENAMES = "ext.test/reject-nodenames"
FAVOURITE = "ext.test/favourite"
PREEMPT_HERE = "ext.test/preempt-here"
BOUND_BY = "ext.test/bound-by"
MSG_REJECT = "rejected by fake extender"
MSG_UNRESOLVABLE = "unresolvable for fake extender"
MSG_REJECT_NODENAMES = "rejected by fake extender (nodenames)"


def field(obj, name):
    """obj[name] matched case-insensitively (Go's encoding/json prefers the exact key)."""
    if not isinstance(obj, dict):
        return None
    if name in obj:
        return obj[name]
    low = name.lower()
    for k, v in obj.items():
        if k.lower() == low:
            return v
    return None


def labels_of(node):
    return (node.get("metadata") or {}).get("labels") or {}


class Extender:
    def __init__(self, api, log_path, broken, go_keys, preempt_none=()):
        self.api = api
        self.broken = set(broken)
        self.go_keys = set(go_keys)
        self.preempt_none = set(preempt_none)
        self.log_lock = threading.Lock()
        self.log = open(log_path, "a", buffering=1)

    def record(self, entry):
        entry["time"] = round(time.time(), 3)
        with self.log_lock:
            self.log.write(json.dumps(entry, sort_keys=True) + "\n")
            self.log.flush()

    def key(self, prefix, lower, go):
        return go if prefix in self.go_keys else lower

    def node_labels_from_api(self):
        status, body = self.api.request("GET", "/api/v1/nodes")
        if status != 200:
            raise RuntimeError("listing nodes: HTTP %d" % status)
        return {n["metadata"]["name"]: labels_of(n) for n in body.get("items", [])}

    def candidates(self, args):
        """(kind, [(name, labels, node object or None)]) from ExtenderArgs."""
        node_list = field(args, "Nodes")
        names = field(args, "NodeNames")
        if node_list is not None:
            items = field(node_list, "Items") or []
            return "nodes", [(n["metadata"]["name"], labels_of(n), n) for n in items]
        if names is not None:
            labels = self.node_labels_from_api()
            return "nodenames", [(n, labels.get(n, {}), None) for n in names]
        return "none", []

    def filter(self, prefix, args, entry):
        kind, cands = self.candidates(args)
        passed, failed, unresolvable = [], {}, {}
        for name, labels, _ in cands:
            if labels.get(UNRESOLVABLE) == "true":
                unresolvable[name] = MSG_UNRESOLVABLE
            elif labels.get(REJECT) == "true":
                failed[name] = MSG_REJECT
            elif kind == "nodenames" and labels.get(REJECT_NODENAMES) == "true":
                failed[name] = MSG_REJECT_NODENAMES
            else:
                passed.append(name)
        entry.update(passed=passed, failed=failed, unresolvable=unresolvable)
        k = lambda lower, go: self.key(prefix, lower, go)  # noqa: E731
        result = {k("failedNodes", "FailedNodes"): failed,
                  k("failedAndUnresolvableNodes", "FailedAndUnresolvableNodes"): unresolvable,
                  k("error", "Error"): ""}
        if kind == "nodenames":
            result[k("nodeNames", "NodeNames")] = passed
        else:
            keep = set(passed)
            result[k("nodes", "Nodes")] = {"kind": "NodeList", "apiVersion": "v1", "metadata": {},
                                           "items": [n for name, _, n in cands if name in keep]}
        return result

    def prioritize(self, prefix, args, entry):
        _, cands = self.candidates(args)
        scores = [{self.key(prefix, "host", "Host"): name,
                   self.key(prefix, "score", "Score"): 10 if labels.get(FAVOURITE) == "true" else 0}
                  for name, labels, _ in cands]
        entry["scores"] = {name: (10 if labels.get(FAVOURITE) == "true" else 0) for name, labels, _ in cands}
        return scores

    def bind(self, prefix, args, entry):
        ns, name = field(args, "PodNamespace"), field(args, "PodName")
        uid, node = field(args, "PodUID"), field(args, "Node")
        entry.update(node=node, uid=uid)
        binding = {"apiVersion": "v1", "kind": "Binding",
                   "metadata": {"name": name, "namespace": ns, "uid": uid,
                                "annotations": {BOUND_BY: prefix}},
                   "target": {"apiVersion": "v1", "kind": "Node", "name": node}}
        status, body = self.api.request("POST", "/api/v1/namespaces/%s/pods/%s/binding" % (ns, name), binding)
        error = "" if status == 201 else "binding %s/%s to %s: HTTP %d: %s" % (
            ns, name, node, status, body.get("message", body) if isinstance(body, dict) else body)
        entry["error"] = error
        return {self.key(prefix, "error", "Error"): error} if error else {}

    def preempt(self, prefix, args, entry):
        victims_map = preemption_map(args)[1]
        uids = victim_uids(args)
        k = lambda lower, go: self.key(prefix, lower, go)  # noqa: E731
        pdb = {}
        for node, victims in victims_map.items():
            pdb[node] = field(victims, "NumPDBViolations") or 0
        labels = self.node_labels_from_api() if victims_map else {}
        kept = [] if prefix in self.preempt_none else \
            sorted(n for n in victims_map if labels.get(n, {}).get(PREEMPT_HERE) == "true")
        entry.update(victim_uids=uids, pdb=pdb, kept=kept, victim_names=victim_names(args),
                     victim_keys=sorted({key for v in victims_map.values() if isinstance(v, dict)
                                         for key, val in v.items() if val is not None}),
                     pod_keys=sorted({key for v in victims_map.values() for p in (field(v, "Pods") or [])
                                      if isinstance(p, dict) for key, val in p.items() if val is not None}))
        return {k("nodeNameToMetaVictims", "NodeNameToMetaVictims"): {
            node: {k("pods", "Pods"): [{k("uid", "UID"): uid} for uid in uids[node]],
                   k("numPDBViolations", "NumPDBViolations"): pdb[node]}
            for node in kept}}


def preemption_map(args):
    """(kind, {node: victims}) of ExtenderPreemptionArgs: the map that was sent (both: the meta one)."""
    whole, meta = field(args, "NodeNameToVictims"), field(args, "NodeNameToMetaVictims")
    kind = {(True, True): "both", (True, False): "victims", (False, True): "metavictims",
            (False, False): "none"}[(whole is not None, meta is not None)]
    chosen = meta if meta is not None else whole
    return kind, chosen if isinstance(chosen, dict) else {}


def victim_uids(args):
    """{node: [victim uid, ...]}: a MetaPod's UID, or a whole pod's metadata.uid."""
    kind, victims_map = preemption_map(args)
    out = {}
    for node, victims in victims_map.items():
        uids = []
        for p in field(victims, "Pods") or []:
            if kind == "victims":
                uids.append(((field(p, "metadata") or {}).get("uid")) or "")
            else:
                uids.append(field(p, "UID") or "")
        out[node] = uids
    return out


def victim_names(args):
    """{node: ["namespace/name", ...]} of whole-pod victims (NodeNameToVictims); {} for meta victims."""
    kind, victims_map = preemption_map(args)
    if kind != "victims":
        return {}
    return {node: ["%s/%s" % ((field(p, "metadata") or {}).get("namespace"), (field(p, "metadata") or {}).get("name"))
                   for p in field(victims, "Pods") or []] for node, victims in victims_map.items()}


def pod_of(verb, args):
    if verb == "bind":
        return "%s/%s" % (field(args, "PodNamespace"), field(args, "PodName"))
    meta = (field(args, "Pod") or {}).get("metadata") or {}
    return "%s/%s" % (meta.get("namespace"), meta.get("name"))


def make_handler(ext):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            if isinstance(self.request, ssl.SSLSocket):
                self.request.settimeout(10)
                self.request.do_handshake()  # a failure ends this connection (traceback on stderr)
            super().setup()

        def read_body(self):
            if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                data = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass
                        return data
                    data += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def answer(self, status, body, content_type="application/json"):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            raw = self.read_body()
            parts = self.path.strip("/").split("/")
            prefix, verb = ("/".join(parts[:-1]), parts[-1]) if len(parts) >= 2 else ("", parts[0])
            entry = {"prefix": prefix, "verb": verb, "path": self.path}
            peer = self.connection.getpeercert() if isinstance(self.connection, ssl.SSLSocket) else None
            if peer:
                entry["client_cn"] = dict(kv[0] for kv in peer.get("subject", ())).get("commonName")
            try:
                args = json.loads(raw or b"{}")
            except ValueError as e:
                args = {}
                entry["bad_json"] = str(e)
            entry["pod"] = pod_of(verb, args)
            entry["keys"] = sorted(k for k, v in args.items() if v is not None) if isinstance(args, dict) else []
            pod_arg = field(args, "Pod")
            entry["pod_object_keys"] = sorted(k for k, v in pod_arg.items() if v is not None) \
                if isinstance(pod_arg, dict) else []
            pod_meta = field(pod_arg, "metadata")
            entry["pod_meta_keys"] = sorted(k for k, v in pod_meta.items() if v is not None) \
                if isinstance(pod_meta, dict) else []
            if verb == "preempt":
                entry["args"], victims_map = preemption_map(args)
                entry["count"] = len(victims_map)
                entry["victims"] = sum(len(u) for u in victim_uids(args).values())
            else:
                nodes_arg, names_arg = field(args, "Nodes"), field(args, "NodeNames")
                entry["args"] = {(True, True): "both", (True, False): "nodes",
                                 (False, True): "nodenames", (False, False): "none"}[
                    (nodes_arg is not None, names_arg is not None)]
                entry["count"] = len(field(nodes_arg, "Items") or []) if nodes_arg is not None else \
                    len(names_arg or [])
            if prefix in ext.broken:
                entry["status"] = 500
                ext.record(entry)
                self.answer(500, b"fake extender: broken on purpose\n", "text/plain")
                return
            handler = {"filter": ext.filter, "prioritize": ext.prioritize, "bind": ext.bind,
                       "preempt": ext.preempt}.get(verb)
            if handler is None or "bad_json" in entry:
                entry["status"] = 404 if handler is None else 400
                ext.record(entry)
                self.answer(entry["status"], b"fake extender: unknown verb or bad request\n", "text/plain")
                return
            try:
                result = handler(prefix, args, entry)
                entry["status"] = 200
            except Exception as e:  # noqa: BLE001  (reported to the caller and logged)
                entry["status"] = 500
                entry["exception"] = repr(e)
                ext.record(entry)
                self.answer(500, ("fake extender: %r\n" % e).encode(), "text/plain")
                return
            ext.record(entry)
            self.answer(200, result)

        def log_message(self, *args):
            pass

    return Handler


def serve(args):
    env = nodes.read_env(args.env)
    pki = env["PKI_DIR"]
    api = nodes.Api(env["APISERVER_URL"], os.path.join(pki, "ca.crt"),
                    os.path.join(pki, "admin.crt"), os.path.join(pki, "admin.key"))
    ext = Extender(api, args.log, args.broken, args.go_keys, args.preempt_none)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(ext))
    server.daemon_threads = True
    if bool(args.tls_cert) != bool(args.tls_key) or (args.tls_client_ca and not args.tls_cert):
        sys.exit("fake_extender.py serve: --tls-cert and --tls-key go together; --tls-client-ca needs them")
    if args.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls_cert, args.tls_key)
        if args.tls_client_ca:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(args.tls_client_ca)
        # The handshake runs in the handler's thread (a client that fails it cannot stall the rest).
        server.socket = ctx.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    port = server.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.rename(tmp, args.port_file)
    print("fake extender on %s://127.0.0.1:%d (broken: %s)" % ("https" if args.tls_cert else "http", port, " ".join(args.broken) or "none"), flush=True)
    server.serve_forever()


def calls(args):
    def strip(s):
        return s[len(args.strip):] if args.strip and s.startswith(args.strip) else s
    with open(args.log) as f:
        for line in f:
            e = json.loads(line)
            if args.prefix and e["prefix"] != args.prefix:
                continue
            if args.prefix_start and not e["prefix"].startswith(args.prefix_start):
                continue
            if args.verb and e["verb"] != args.verb:
                continue
            if args.pod and e["pod"] != args.pod:
                continue
            if args.field:
                print(json.dumps(e.get(args.field), sort_keys=True))
                continue
            ns, _, name = e["pod"].partition("/")
            cols = [strip(e["prefix"]), e["verb"], ns + "/" + strip(name), e["args"],
                    str(e["count"]), str(e["status"]), ",".join(e["keys"])]
            if e["verb"] == "preempt":
                cols.append(str(e.get("victims", "")))
            print("\t".join(cols))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--env", required=True, help="env file written by tests/controlplane/start.sh")
    s.add_argument("--log", required=True)
    s.add_argument("--port", type=int, default=0)
    s.add_argument("--port-file")
    s.add_argument("--broken", action="append", default=[])
    s.add_argument("--go-keys", action="append", default=[])
    s.add_argument("--preempt-none", action="append", default=[])
    s.add_argument("--tls-cert", help="serve HTTPS with this certificate (PEM)")
    s.add_argument("--tls-key", help="the key of --tls-cert (PEM)")
    s.add_argument("--tls-client-ca", help="require client certificates signed by this CA (PEM)")
    c = sub.add_parser("calls")
    c.add_argument("log")
    c.add_argument("--prefix")
    c.add_argument("--prefix-start", help="only prefixes starting with this, e.g. ours-")
    c.add_argument("--verb")
    c.add_argument("--pod")
    c.add_argument("--strip")
    c.add_argument("--field")
    args = parser.parse_args()
    if args.cmd == "serve":
        serve(args)
        return
    try:
        calls(args)
    except BrokenPipeError:  # a reader that stopped early (head)
        sys.stderr.close()


if __name__ == "__main__":
    main()
