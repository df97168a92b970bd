#!/usr/bin/env python3
"""freezing_proxy.py --listen PORT --target HOST:PORT: a TCP proxy on 127.0.0.1 that can freeze the
connections it carries, as a silent network partition does (a firewall dropping packets, a
stateful middlebox losing its table): on SIGUSR1 every connection open at that moment stops
forwarding in both directions, without a FIN or RST, and stays open; connections made afterwards
are forwarded normally. On SIGUSR2 every frozen connection is cut (closed at once, what the freeze
held back discarded), as a middlebox that finally resets them would: the client sees the connection
end without having received anything sent during the freeze. SIGTERM stops it. Prints "listening"
once ready and one line per freeze and per cut.
"""
import argparse
import asyncio
import signal
import sys


class Proxy:
    def __init__(self, target_host, target_port):
        self.target = (target_host, target_port)
        self.live = set()  # (client_writer, upstream_writer) pairs still forwarding
        self.frozen = []   # kept open, never read again

    async def pipe(self, reader, writer, pair):
        try:
            while pair in self.live:
                data = await reader.read(65536)
                if not data or pair not in self.live:
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            if pair in self.live:
                self.live.discard(pair)
                for w in pair:
                    w.close()

    async def handle(self, client_reader, client_writer):
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.close()
            return
        pair = (client_writer, upstream_writer)
        self.live.add(pair)
        await asyncio.gather(self.pipe(client_reader, upstream_writer, pair),
                             self.pipe(upstream_reader, client_writer, pair))

    def freeze(self):
        # The pipes see their pair gone and stop forwarding; the sockets stay open (no FIN, no RST).
        count = len(self.live)
        self.frozen.extend(self.live)
        self.live.clear()
        print(f"froze {count} connection(s)", flush=True)

    def cut(self):
        count = len(self.frozen)
        for pair in self.frozen:
            for w in pair:
                w.transport.abort()
        self.frozen.clear()
        print(f"cut {count} frozen connection(s)", flush=True)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", type=int, required=True)
    parser.add_argument("--target", required=True)
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)
    proxy = Proxy(host, int(port))
    server = await asyncio.start_server(proxy.handle, "127.0.0.1", args.listen)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    loop.add_signal_handler(signal.SIGUSR1, proxy.freeze)
    loop.add_signal_handler(signal.SIGUSR2, proxy.cut)
    loop.add_signal_handler(signal.SIGTERM, lambda: stop.done() or stop.set_result(None))
    print("listening", flush=True)
    async with server:
        await stop
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
