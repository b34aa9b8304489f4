"""Reads the spec and writes the result document, wherever the run service put them.

Locally they are files (plain paths or ``file://``); on EMR Serverless they are S3 objects, read
and written through Hadoop's FileSystem (EMRFS), so the job needs no AWS SDK of its own.
"""
from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import urlparse


def _local_path(uri: str) -> str | None:
    parsed = urlparse(uri)
    if parsed.scheme in ("", "file"):
        return parsed.path if parsed.scheme == "file" else uri
    return None


def _hadoop_path(spark: Any, uri: str) -> tuple[Any, Any]:
    jvm = spark._jvm
    path = jvm.org.apache.hadoop.fs.Path(uri)
    return path.getFileSystem(spark._jsc.hadoopConfiguration()), path


def read_json(spark: Any, uri: str) -> Any:
    """Reads a JSON document from a path or URI."""
    local = _local_path(uri)
    if local is not None:
        with open(local, encoding="utf-8") as handle:
            return json.load(handle)
    fs, path = _hadoop_path(spark, uri)
    stream = fs.open(path)
    try:
        data = spark._jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8")
    finally:
        stream.close()
    return json.loads(data)


def write_json(spark: Any, uri: str, doc: dict[str, Any]) -> None:
    """Writes a JSON document whole: readers see the old state or the new one, never half."""
    text = json.dumps(doc, sort_keys=True)
    local = _local_path(uri)
    if local is not None:
        os.makedirs(os.path.dirname(local) or ".", exist_ok=True)
        partial = f"{local}.partial"
        with open(partial, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(partial, local)
        return
    # An S3 object appears only when the stream closes, so a single write is already atomic.
    fs, path = _hadoop_path(spark, uri)
    stream = fs.create(path, True)
    try:
        stream.write(bytearray(text.encode("utf-8")))
    finally:
        stream.close()
