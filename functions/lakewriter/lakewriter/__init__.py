"""lakeline's lake writer: every Iceberg write goes through pyiceberg here, never hand-written metadata.

Run locally as a subprocess (``python -m lakewriter``, one JSON command on stdin, one JSON answer on
stdout) and in AWS as a Python Lambda (``lakewriter.handler.handler``) with the same commands.
"""
