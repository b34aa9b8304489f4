"""lakeline polars sandbox: runs polars SQL and dataframe scripts over Iceberg tables.

The package is the code *inside* the sandbox: the Node side decides what a request may read, links
exactly those files into the sandbox and sends the request; this code runs it in a forked child
(``zygote``), so nothing a script does survives into the next request.
"""
