"""AWS entry point: the Python Lambda invoked by the Node functions with the same requests."""
from typing import Any

from .commands import run


def handler(event: dict[str, Any], _context: Any) -> dict[str, Any]:
    return run(event)
