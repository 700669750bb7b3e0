"""Stand-ins the tests share: a stream that says it is a terminal and keeps what is written."""


class Tty:
    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass
