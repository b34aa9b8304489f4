"""``python -m lakeline_polars``: the warm sandbox worker (see zygote)."""
from .zygote import serve

serve()
