"""How the suite itself is set up (tests/conftest.py)."""

from __future__ import annotations

import os

import pytest
from gmtool_testing import RAM_DISK, ram_disk_usable


def test_tmp_path_is_on_the_ram_disk_where_there_is_one(tmp_path):
    if os.environ.get("PYTEST_DEBUG_TEMPROOT", RAM_DISK) != RAM_DISK:
        pytest.skip("PYTEST_DEBUG_TEMPROOT chooses another folder")
    if not ram_disk_usable():
        pytest.skip(f"{RAM_DISK} is missing, read-only or too small")
    assert tmp_path.resolve().is_relative_to(os.path.realpath(RAM_DISK)), tmp_path
