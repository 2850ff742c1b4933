"""uq_status_t as a Python exception: every failing libuqrt call raises
uqrt.Error carrying the status code and the library's message."""

import enum


class StatusCode(enum.IntEnum):
    """uq_status_code_t (uq/status.h)."""

    OK = 0
    INVALID_ARGUMENT = 1
    NOT_FOUND = 2
    OUT_OF_RANGE = 3
    RESOURCE_EXHAUSTED = 4
    FAILED_PRECONDITION = 5
    UNAVAILABLE = 6
    UNIMPLEMENTED = 7
    DATA_LOSS = 8
    INTERNAL = 9


class Error(Exception):
    """A libuqrt failure, or a buffer the Python layer refused before calling
    the library (then code is INVALID_ARGUMENT and nothing was written)."""

    def __init__(self, code, message):
        try:
            code = StatusCode(code)
        except ValueError:
            code = StatusCode.INTERNAL
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


def invalid(message):
    return Error(StatusCode.INVALID_ARGUMENT, message)
