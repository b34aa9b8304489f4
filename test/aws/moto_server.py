"""The AWS emulator of a test run: moto in server mode on a free loopback port.

Prints one JSON line ``{"port": N}`` once it accepts requests, then serves until its standard input
closes (the test set-up ended, or died) or it gets SIGTERM. Started by ``test/aws/emulator.ts``.
"""
import json
import signal
import sys
import threading

from moto.server import ThreadedMotoServer


def main() -> int:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    _, port = server.get_host_and_port()
    print(json.dumps({"port": port}), flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    # A parent that dies without stopping us closes our stdin: stop then too.
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait()
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
