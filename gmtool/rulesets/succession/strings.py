"""UI strings of the Grail Succession screens (key -> (ja, en)), merged into the one catalog."""

STRINGS: dict[str, tuple[str, str]] = {
    "succession.title": ("聖杯サクセション", "Grail Succession"),
}
