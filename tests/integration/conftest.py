"""The integration tests start real servers (`gmtool serve`, with --workers its workers and Caddy) and kill them with
SIGKILL. A test that failed half-way left its server running (the suite's later runs and the other engineers' tests
shared the machine with it): each test now stops what it starts in a `finally` or a fixture's finalizer, and
`no_process_left_behind` checks that it did."""

from __future__ import annotations

import os
import signal
import time

import pytest
from gmtool_testing import PROC, mark_run, run_processes

mark_run()


@pytest.fixture(autouse=True)
def no_process_left_behind():
    """After each test, no process it started is still running: one that is (a server a failed test never stopped,
    or what a killed one left) is killed here, and the test errors, naming it. What a module's fixture keeps for
    its tests (test_workers' cluster) was running before the test and is left alone; so is what another xdist
    worker's tests start (gmtool_testing.run_processes)."""
    if not PROC.is_dir():  # (not Linux: nothing to look at)
        yield
        return
    before = set(run_processes())
    yield
    deadline = time.monotonic() + 5  # a failure guard: a worker ends within a second of its parent (test_workers)
    while (left := {pid: cmd for pid, cmd in run_processes().items() if pid not in before}) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert left == {}, f"the test left these running (now killed): {left}"
