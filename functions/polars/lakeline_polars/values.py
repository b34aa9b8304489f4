"""JSON-safe values, by the rule the DuckDB engine uses.

A value is a JSON number when a double carries it exactly, else a string of its exact digits;
temporal values are ISO 8601 text, binary is base64, nested values JSON arrays and objects,
NaN and infinities strings. So both engines answer the same rows the same way.
"""
from __future__ import annotations

import base64
import datetime as dt
import decimal
import math
from typing import Any

_MAX_SAFE = 2**53 - 1
_MAX_EXACT_DECIMAL_DIGITS = 15


def json_value(value: Any) -> Any:
    """One value as JSON."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if -_MAX_SAFE <= value <= _MAX_SAFE else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            return str(value)
        digits = len(value.as_tuple().digits)
        return float(value) if digits <= _MAX_EXACT_DECIMAL_DIGITS else format(value, "f")
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return f"PT{value.total_seconds()}S"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return str(value)


def dtype_name(dtype: Any) -> str:
    """The polars dtype name as polars prints it (``Int64``, ``String``, ``Decimal(precision=15, scale=2)``)."""
    return str(dtype)
