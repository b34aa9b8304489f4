"""The script policy: refused calls found statically, literal scans collected, `result` required."""
import pytest

from lakeline_polars.policy import PolicyError, analyze_script


def test_should_collect_literal_scans_in_order_of_first_use():
    found = analyze_script('a = scan("ns.t")\nb = scan("x")\nresult = a.join(scan("ns.t"), on="k")')
    assert found.scans == ["ns.t", "x"]
    assert found.dynamic_scan is False


def test_should_mark_a_scan_of_a_computed_name_as_dynamic():
    assert analyze_script('name = "ns." + "t"\nresult = scan(name)').dynamic_scan is True


@pytest.mark.parametrize(
    "source",
    [
        'result = scan("t").collect()',
        'result = scan("t").remote()',
        'result = pl.collect_all([scan("t")])',
        'result = getattr(scan("t"), "collect")()',
        'scan("t").sink_parquet("x")\nresult = 1',
    ],
)
def test_should_refuse_calls_that_run_a_plan(source):
    with pytest.raises(PolicyError, match=r"line \d+: calling \.\w+\(\) is not allowed"):
        analyze_script(source)


def test_should_require_result():
    with pytest.raises(PolicyError, match="must assign its output to `result`"):
        analyze_script("x = 1")


def test_should_report_a_syntax_error_with_its_line():
    with pytest.raises(PolicyError, match="line 2: syntax error"):
        analyze_script("result = 1\nif:")
