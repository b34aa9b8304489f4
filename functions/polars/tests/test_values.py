"""JSON values by the DuckDB engine's rule, and polars dtype names."""
import datetime as dt
import decimal

import polars as pl

from lakeline_polars.values import dtype_name, json_value


def test_should_keep_exact_numbers_and_stringify_the_rest():
    assert json_value(2**53 - 1) == 2**53 - 1
    assert json_value(2**53) == str(2**53)
    assert json_value(float("nan")) == "nan"
    assert json_value(decimal.Decimal("1.50")) == 1.5
    assert json_value(decimal.Decimal("12345678901234567.89")) == "12345678901234567.89"


def test_should_write_temporal_binary_and_nested_values_as_json():
    assert json_value(dt.date(2024, 3, 1)) == "2024-03-01"
    assert json_value(b"\x00\x01") == "AAE="
    assert json_value({"a": [1, dt.time(1, 2)]}) == {"a": [1, "01:02:00"]}


def test_should_name_dtypes_as_polars_prints_them():
    assert dtype_name(pl.Int64) == "Int64"
    assert dtype_name(pl.Decimal(15, 2)) == "Decimal(precision=15, scale=2)"
