"""The suite's Chromium runs as conftest.browser_type_launch_args sets it up: no renderer process for the browser's own
address-bar popups in a context (about 0.6 s of CPU per context, with a context in almost every browser test), and
Playwright's own disabled features still disabled (Chromium reads only the last --disable-features it is given)."""

from __future__ import annotations

import os
from pathlib import Path


def chromium_processes() -> list[list[str]]:
    """The command lines of the Chromium processes this test process started (through Playwright's driver)."""
    parents, commands = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            # split on spaces too: a process forked from Chromium's zygote rewrites its command line as one string
            argv = (entry / "cmdline").read_bytes().decode(errors="replace").replace("\0", " ").split()
        except OSError:  # it ended meanwhile
            continue
        parents[entry.name] = stat[stat.rfind(")") + 2:].split()[1]
        commands[entry.name] = argv
    me, out = str(os.getpid()), []
    for pid, argv in commands.items():
        ancestor = parents.get(pid)
        while ancestor and ancestor not in (me, "0", "1"):
            ancestor = parents.get(ancestor)
        if ancestor == me and argv and os.path.basename(argv[0]) == "chromium":
            out.append(argv)
    return out


def test_a_context_starts_no_browser_ui_renderer_and_playwrights_features_stay_disabled(page):
    page.evaluate("1")  # the context's window and its page are up
    processes = chromium_processes()
    browsers = [argv for argv in processes if not any(a.startswith("--type=") for a in argv)]
    assert len(browsers) == 1, browsers
    switches = [a.split("=", 1)[1].split(",") for a in browsers[0] if a.startswith("--disable-features=")]
    assert len(switches) >= 2, "Playwright's --disable-features and the suite's"
    dropped = {f for earlier in switches[:-1] for f in earlier} - set(switches[-1])
    assert not dropped, f"conftest.PLAYWRIGHT_DISABLED_FEATURES lacks what Playwright disables now: {sorted(dropped)}"
    renderers = [argv for argv in processes if "--type=renderer" in argv]
    assert renderers, "the page's renderer"
    assert not [argv for argv in renderers if "--top-chrome-webui" in argv], "a renderer for the browser's own UI"
