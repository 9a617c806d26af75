"""Prints the failed checks of a test script and the closing line
"N passed, N failed" that CTest logs and CI read; returns the exit status."""


def report(checks):
    """checks: a list of (description, passed) pairs."""
    failed = [name for name, ok in checks if not ok]
    for name in failed:
        print("FAILED:", name)
    print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0
