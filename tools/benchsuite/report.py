"""Output: progress lines on stderr, the result rows, and tables as plain text or markdown.

Every table of the bench scripts goes through :func:`render`: the main table (:class:`Row`,
:func:`render_rows`), the encodings' and the everyday calls' own layouts. Progress goes to
stderr (:func:`log`), tables to stdout, so ``> table.md`` keeps only the table.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass


def log(message: str) -> None:
    """A progress line, on stderr, flushed at once."""
    print(message, file=sys.stderr, flush=True)


@dataclass
class Row:
    """One line of the main table: an implementation's best time on a workload."""

    workload: str
    impl: str
    seconds: float | None = None  # best time; None when not timed
    units: float = 0.0  # work done per run (nodes, plies, FENs)
    unit: str = ""
    ratio: float | None = None
    ratio_ref: str = ""
    note: str = ""

    @property
    def rate(self) -> float | None:
        if self.seconds is None or self.seconds <= 0:
            return None
        return self.units / self.seconds


def set_ratios(rows: Sequence[Row], reference: Row | None, *, by_rate: bool = False) -> None:
    """Every timed row's ratio against ``reference`` (marked "(ref)"), run in the same process.

    The ratio is the reference's time over the row's (``by_rate``: the row's rate over the
    reference's, for rows whose units differ), so higher is faster.
    """
    if reference is None or reference.seconds is None or not reference.rate:
        return
    for row in rows:
        if row.seconds is None or not row.rate:
            continue
        if by_rate:
            row.ratio = row.rate / reference.rate
        else:
            row.ratio = reference.seconds / row.seconds
        row.ratio_ref = "(ref)" if row is reference else ""


def fmt_rate(rate: float | None, unit: str) -> str:
    if rate is None:
        return ""
    for factor, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rate >= factor:
            return f"{rate / factor:.2f} {prefix}{unit}/s"
    return f"{rate:.1f} {unit}/s"


def fmt_seconds(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def fmt_ratio(row: Row) -> str:
    if row.ratio is None:
        return ""
    return f"{row.ratio:.2f}x {row.ratio_ref}".rstrip()


def render(
    header: Sequence[str],
    cells: Sequence[Sequence[str]],
    markdown: bool,
    right: Collection[int] = (),
) -> str:
    """A table: markdown (``|`` in cells escaped), or plain text in aligned columns.

    ``right`` holds the indices of the right-aligned (numeric) columns.
    """
    if markdown:
        rule = ("---:" if i in right else "---" for i in range(len(header)))
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(rule) + "|"]
        for row in cells:
            lines.append("| " + " | ".join(x.replace("|", "\\|") for x in row) + " |")
        return "\n".join(lines)
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(header)]
    sep = "  "
    out = [sep.join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    out.append(sep.join("-" * w for w in widths))
    for row in cells:
        out.append(
            sep.join(
                x.rjust(w) if i in right else x.ljust(w)
                for i, (x, w) in enumerate(zip(row, widths))
            ).rstrip()
        )
    return "\n".join(out)


def render_rows(rows: Sequence[Row], markdown: bool) -> str:
    """The main table: workload, implementation, best time, rate, ratio, note."""
    header = ("Workload", "Implementation", "Time", "Rate", "Ratio", "Note")
    cells = [
        (r.workload, r.impl, fmt_seconds(r.seconds), fmt_rate(r.rate, r.unit), fmt_ratio(r), r.note)
        for r in rows
    ]
    return render(header, cells, markdown, right={2, 3, 4})


def machine_line() -> str:
    """The processor, its logical cores and the Python version, for the table's header."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical cores, Python {platform.python_version()}"
