"""The AWS emulator of a test run: moto in server mode on a free loopback port.

Prints one JSON line ``{"port": N}`` once it accepts requests, then serves until its standard input
closes (the test set-up ended, or died) or it gets SIGTERM. Started by ``test/aws/emulator.ts``.

Requests are served on threads, as ``moto.server.ThreadedMotoServer`` serves them, with one
difference: DynamoDB's writes run one at a time. DynamoDB applies the writes to one item one after
another, so concurrent ``ADD``s all count; moto reads, changes and stores an item without a lock,
so two concurrent ``ADD``s that create the same attribute kept one (seen as 8 of 10 in the org
store's concurrency test). Serialising every DynamoDB write is coarser than DynamoDB's per-item
order but gives the same guarantee for the items our tests race on.
"""
import json
import signal
import sys
import threading

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from werkzeug.serving import make_server

# The DynamoDB actions that change items (the JSON protocol names them in X-Amz-Target).
DYNAMODB_WRITES = frozenset(
    f"DynamoDB_20120810.{action}"
    for action in ("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems", "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction")
)


class SerialDynamoDBWrites:
    """WSGI middleware: DynamoDB writes take one lock; everything else passes straight through."""

    def __init__(self, app):
        self._app = app
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        if environ.get("HTTP_X_AMZ_TARGET") not in DYNAMODB_WRITES:
            return self._app(environ, start_response)
        with self._lock:
            # moto builds the whole body before returning it, so the write is done inside the lock.
            return list(self._app(environ, start_response))


def main() -> int:
    app = SerialDynamoDBWrites(DomainDispatcherApplication(create_backend_app))
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=MotoRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    # A parent that dies without stopping us closes our stdin: stop then too.
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
