"""lakeline managed Spark, local profile: the warm driver (ADR 0059). Started once, with plain
Python (PySpark starts the JVM with the settings given, so the driver's stdin stays ours), it runs
small jobs sent on its stdin one at a time (``lakeline_spark/warm.py``) and answers on file
descriptor 3. Big jobs keep ``run_job.py``, a JVM of their own each.

Usage: ``warm_driver.py [--conf key=value ...]``.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from lakeline_spark.session import open_session  # noqa: E402 - the path must be set first
from lakeline_spark.warm import serve  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="lakeline warm Spark driver")
    parser.add_argument("--conf", action="append", default=[], help="a Spark setting, key=value")
    args = parser.parse_args()
    conf = dict(item.split("=", 1) for item in args.conf)
    answers = os.fdopen(3, "w")
    spark = open_session("lakeline-warm", conf)
    try:
        serve(spark, sys.stdin, answers)
    finally:
        spark.stop()
