"""lakeline managed Spark, local profile: the warm driver given to ``spark-submit`` once, which
then runs small jobs sent on its stdin one at a time (``lakeline_spark/warm.py``, ADR 0059).
Big jobs keep ``run_job.py``, a JVM of their own each."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from lakeline_spark.session import open_session  # noqa: E402 - the path must be set first
from lakeline_spark.warm import serve  # noqa: E402

if __name__ == "__main__":
    spark = open_session("lakeline-warm")
    try:
        serve(spark, sys.stdin, sys.stdout)
    finally:
        spark.stop()
