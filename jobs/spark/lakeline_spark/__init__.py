"""lakeline's managed Spark job: one SQL query into one Iceberg output table (see job.py)."""
