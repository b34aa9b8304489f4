"""lakeline managed Spark: the entry script given to ``spark-submit`` (locally) and to EMR
Serverless ``StartJobRun`` (in AWS). Usage: ``run_job.py --spec <path-or-URI of the job spec>``.

The work lives in the ``lakeline_spark`` package beside this file (shipped to EMR as
``--py-files``); this file only makes it importable and exits with its code.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from lakeline_spark.job import main  # noqa: E402 - the path must be set first

if __name__ == "__main__":
    sys.exit(main())
