#!/usr/bin/env python3
"""secure_port_flood.py: how a scheduler's health probes fare while anonymous clients flood its
secure port with requests that each need a review (issue #44 item 4).

  secure_port_flood.py --port P [--connections 3500] [--seconds 30] [--mode paths|tokens|both]

Opens --connections keep-alive TLS connections to 127.0.0.1:P. Each sends GET requests back to
back: `paths` mode anonymous requests for a path never asked before (one SubjectAccessReview each
upstream), `tokens` mode /metrics with a bearer token never sent before (one TokenReview each).
Meanwhile a prober does what the kubelet does for a liveness probe: a new TLS connection, GET
/healthz, no credentials, every 0.2 s, each with a 30 s limit. Prints one JSON object: the probes'
latency (p50, p99, max, failures) and the flood's answers by status code.

Loopback only; stops when --seconds have passed (the flood's connections are closed).
"""
import argparse
import asyncio
import json
import random
import ssl
import string
import time


def tls_context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


async def read_response(reader):
    """Reads one HTTP/1.1 response with Content-Length; returns the status code."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    code = int(status_line.split()[1])
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length:
        await reader.readexactly(length)
    return code


def random_word(n=16):
    return "".join(random.choice(string.ascii_lowercase) for _ in range(n))


async def flooder(port, ctx, mode, deadline, codes, errors):
    while time.monotonic() < deadline:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, ssl=ctx), timeout=max(0.1, deadline - time.monotonic()))
        except Exception:  # noqa: BLE001 - counted, retried
            errors["connect"] = errors.get("connect", 0) + 1
            await asyncio.sleep(0.5)
            continue
        try:
            while time.monotonic() < deadline:
                use_token = mode == "tokens" or (mode == "both" and random.random() < 0.5)
                if use_token:
                    request = (f"GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {random_word(40)}\r\n\r\n")
                else:
                    request = f"GET /flood/{random_word()} HTTP/1.1\r\nHost: x\r\n\r\n"
                writer.write(request.encode())
                code = await asyncio.wait_for(read_response(reader), timeout=max(0.1, deadline - time.monotonic()))
                codes[code] = codes.get(code, 0) + 1
                if code == 429:
                    await asyncio.sleep(1)  # Retry-After: 1
        except Exception:  # noqa: BLE001 - the connection ended; open another
            errors["request"] = errors.get("request", 0) + 1
        finally:
            writer.close()


async def probe_once(port, ctx):
    start = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=ctx)
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nUser-Agent: kube-probe/1.37\r\n\r\n")
        code = await read_response(reader)
    finally:
        writer.close()
    return code, time.monotonic() - start


async def prober(port, ctx, deadline, samples, failures):
    while time.monotonic() < deadline:
        try:
            code, elapsed = await asyncio.wait_for(probe_once(port, ctx), timeout=30)
            if code == 200:
                samples.append(elapsed)
            else:
                failures.append(f"status {code}")
        except Exception as error:  # noqa: BLE001 - a failed probe is the finding
            failures.append(type(error).__name__)
        await asyncio.sleep(0.2)


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--connections", type=int, default=3500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--mode", choices=["paths", "tokens", "both"], default="both")
    args = parser.parse_args()
    ctx = tls_context()
    codes, errors, samples, failures = {}, {}, [], []
    start = time.monotonic()
    deadline = start + args.seconds
    tasks = [asyncio.create_task(prober(args.port, ctx, deadline, samples, failures))]
    for _ in range(args.connections):
        tasks.append(asyncio.create_task(flooder(args.port, ctx, args.mode, deadline, codes, errors)))
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - start
    print(json.dumps({
        "connections": args.connections, "seconds": round(elapsed, 1), "mode": args.mode,
        "probes": len(samples) + len(failures), "probe_failures": len(failures),
        "probe_failure_kinds": sorted(set(failures)),
        "probe_p50_s": percentile(samples, 50), "probe_p99_s": percentile(samples, 99),
        "probe_max_s": max(samples) if samples else None,
        "flood_answers": {str(k): v for k, v in sorted(codes.items())},
        "flood_per_s": round(sum(codes.values()) / elapsed, 1), "flood_errors": errors,
    }))


if __name__ == "__main__":
    asyncio.run(main())
