"""Local entry point: one JSON request on stdin, one JSON answer on stdout."""
import json
import sys

from .commands import run


def main() -> int:
    answer = run(json.load(sys.stdin))
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")
    return 0 if answer.get("ok") else 3


if __name__ == "__main__":
    sys.exit(main())
