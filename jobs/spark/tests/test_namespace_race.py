"""Creating the output namespace when another run creates it at the same moment."""
from types import SimpleNamespace

import pytest

from lakeline_spark.write import _ensure_namespace

SPEC = SimpleNamespace(catalog=SimpleNamespace(name="lakeline", namespace_prefix="org_x__"), output_namespace="fresh")


class Spark:
    """Answers ``sql`` by raising ``error`` (or nothing), recording the statements."""

    def __init__(self, error=None):
        self.error = error
        self.statements = []

    def sql(self, statement):
        self.statements.append(statement)
        if self.error is not None:
            raise self.error


@pytest.mark.parametrize(
    "message",
    [
        "Namespace already exists: org_x__fresh",  # Iceberg's AlreadyExistsException
        "[SCHEMA_ALREADY_EXISTS] Cannot create schema `fresh` because it already exists.",
        "[NAMESPACE_ALREADY_EXISTS] Cannot create namespace",
    ],
)
def test_a_namespace_a_concurrent_run_created_first_is_fine(message):
    spark = Spark(RuntimeError(message))
    _ensure_namespace(spark, SPEC)
    assert spark.statements == ["CREATE NAMESPACE IF NOT EXISTS `lakeline`.`org_x__fresh`"]


def test_any_other_failure_still_fails_the_run():
    with pytest.raises(RuntimeError, match="AccessDenied"):
        _ensure_namespace(Spark(RuntimeError("AccessDenied: glue:CreateDatabase")), SPEC)
