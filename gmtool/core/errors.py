"""Errors a player or GM can read, in Japanese and English."""


def error_json(status: int, ja: str, en: str) -> dict:
    """The API's error object (docs/api.md): what every refusal answers, whoever writes it (the app or the server)."""
    return {"error": {"status": status, "ja": ja, "en": en, "message": f"{ja} / {en}"}}


class GmError(ValueError):
    """A rejected action: carries a Japanese and an English message and an HTTP status."""

    status = 400

    def __init__(self, ja: str, en: str, status: int | None = None):
        super().__init__(f"{ja} / {en}")
        self.ja = ja
        self.en = en
        if status is not None:
            self.status = status

    def message(self, lang: str) -> str:
        """The message in one language."""
        return self.en if lang == "en" else self.ja


class NotFound(GmError):
    """Something named in a request does not exist."""

    status = 404


class Forbidden(GmError):
    """The viewer may not do this."""

    status = 403


class Conflict(GmError):
    """The action does not fit the current state (e.g. a locked prompt)."""

    status = 409
