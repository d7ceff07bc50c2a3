"""Fixtures of the export tests: the scripted session of export_session.py."""

from __future__ import annotations

import pytest
from export_session import Script, build_script


@pytest.fixture(scope="session")
def script() -> Script:
    """The scripted session (built once; tests must not change it)."""
    return build_script()
