"""Profile a CSV file using only the Python standard library.

Usage:
    python3 profile_csv.py FILE.csv [--delimiter ,] [--encoding utf-8]
                           [--max-rows N] [--top K] [--json]

For every column the script reports the inferred type (integer, float,
boolean, date, datetime, text or empty), the number of missing values, the
number of distinct values and, depending on the type, min / max / mean /
median / standard deviation, the date range, or the most frequent values.

It only reads the file given on the command line and writes to stdout. It
never modifies the input.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import statistics
import sys
from collections import Counter
from datetime import datetime

MISSING_MARKERS = {"", "na", "n/a", "nan", "null", "none", "nil", "-", "--", "?"}
TRUE_WORDS = {"true", "yes", "y", "t"}
FALSE_WORDS = {"false", "no", "n", "f"}
DATE_FORMATS = ("%Y-%m-%d", "%Y/%m/%d", "%d.%m.%Y", "%m/%d/%Y", "%d/%m/%Y", "%Y%m%d")
DATETIME_FORMATS = (
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M:%S.%f",
    "%Y-%m-%d %H:%M:%S.%f",
)
KIND_FAMILY = {"integer": "number", "float": "number", "date": "temporal", "datetime": "temporal"}
# Cheap pre-check so that strptime (slow when it fails) only sees likely dates.
TEMPORAL_SHAPE = re.compile(r"^(\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{4}|\d{8})")
DISTINCT_CAP = 10_000  # stop tracking distinct values beyond this many
NUMERIC_SAMPLE_CAP = 200_000  # values kept per column for the median


def parse_number(text: str) -> float | None:
    """Return the numeric value of text, accepting thousands separators."""
    cleaned = text.replace(",", "").replace("_", "").strip()
    if cleaned.endswith("%"):
        cleaned = cleaned[:-1]
    if not cleaned:
        return None
    try:
        value = float(cleaned)
    except ValueError:
        return None
    if math.isnan(value) or math.isinf(value):
        return None
    return value


def looks_integer(text: str) -> bool:
    cleaned = text.replace(",", "").replace("_", "").strip()
    if cleaned.startswith(("+", "-")):
        cleaned = cleaned[1:]
    return cleaned.isdigit()


def parse_temporal(text: str) -> tuple[str, datetime] | None:
    """Return ("date"|"datetime", value) when text matches a known format."""
    stripped = text.strip()
    if not TEMPORAL_SHAPE.match(stripped):
        return None
    for fmt in DATE_FORMATS:
        try:
            return "date", datetime.strptime(stripped, fmt)
        except ValueError:
            continue
    candidate = stripped.replace("Z", "")
    for fmt in DATETIME_FORMATS:
        try:
            return "datetime", datetime.strptime(candidate, fmt)
        except ValueError:
            continue
    return None


class ColumnProfile:
    """Accumulates statistics for one column while rows stream past."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0
        self.missing = 0
        self.distinct: set[str] = set()
        self.distinct_capped = False
        self.kind_votes: Counter[str] = Counter()
        self.numbers: list[float] = []
        self.numeric_seen = 0
        self.num_min = math.inf
        self.num_max = -math.inf
        self.mean = 0.0
        self.m2 = 0.0
        self.temporal_min: datetime | None = None
        self.temporal_max: datetime | None = None
        self.text_counts: Counter[str] = Counter()
        self.max_length = 0

    def add(self, raw: str) -> None:
        self.count += 1
        value = raw.strip()
        if value.lower() in MISSING_MARKERS:
            self.missing += 1
            return
        if not self.distinct_capped:
            self.distinct.add(value)
            if len(self.distinct) > DISTINCT_CAP:
                self.distinct_capped = True
                self.distinct.clear()
        self.max_length = max(self.max_length, len(value))
        if len(self.text_counts) < DISTINCT_CAP or value in self.text_counts:
            self.text_counts[value] += 1

        lowered = value.lower()
        number = parse_number(value)
        if number is not None and lowered not in TRUE_WORDS | FALSE_WORDS:
            self.kind_votes["integer" if looks_integer(value) else "float"] += 1
            self._add_number(number)
            return
        if lowered in TRUE_WORDS or lowered in FALSE_WORDS:
            self.kind_votes["boolean"] += 1
            return
        temporal = parse_temporal(value)
        if temporal is not None:
            kind, moment = temporal
            self.kind_votes[kind] += 1
            if self.temporal_min is None or moment < self.temporal_min:
                self.temporal_min = moment
            if self.temporal_max is None or moment > self.temporal_max:
                self.temporal_max = moment
            return
        self.kind_votes["text"] += 1

    def _add_number(self, number: float) -> None:
        # Welford's online algorithm keeps mean and variance exact enough
        # without holding every value in memory.
        self.numeric_seen += 1
        delta = number - self.mean
        self.mean += delta / self.numeric_seen
        self.m2 += delta * (number - self.mean)
        self.num_min = min(self.num_min, number)
        self.num_max = max(self.num_max, number)
        if len(self.numbers) < NUMERIC_SAMPLE_CAP:
            self.numbers.append(number)

    def inferred_type(self) -> str:
        present = self.count - self.missing
        if present == 0:
            return "empty"
        votes = self.kind_votes
        numeric = votes["integer"] + votes["float"]
        # A column is numeric when at least 95% of its present values parse.
        if numeric >= 0.95 * present:
            return "integer" if votes["float"] == 0 else "float"
        for kind in ("boolean", "date", "datetime"):
            if votes[kind] >= 0.95 * present:
                return kind
        if votes["date"] + votes["datetime"] >= 0.95 * present:
            return "datetime"
        return "text"

    def report(self, top: int) -> dict[str, object]:
        present = self.count - self.missing
        kind = self.inferred_type()
        result: dict[str, object] = {
            "column": self.name,
            "type": kind,
            "rows": self.count,
            "missing": self.missing,
            "missing_pct": round(100.0 * self.missing / self.count, 2) if self.count else 0.0,
            "distinct": None if self.distinct_capped else len(self.distinct),
        }
        mixed = {k: v for k, v in self.kind_votes.items() if v}
        families = {KIND_FAMILY.get(k, k) for k in mixed}
        if len(families) > 1:
            # Only worth reporting when values disagree in kind, not when a
            # numeric column merely holds both 3 and 3.5.
            result["mixed_kinds"] = dict(sorted(mixed.items()))
        if kind in ("integer", "float") and self.numeric_seen:
            std = math.sqrt(self.m2 / (self.numeric_seen - 1)) if self.numeric_seen > 1 else 0.0
            as_int = kind == "integer"
            result.update(
                {
                    "min": int(self.num_min) if as_int else self.num_min,
                    "max": int(self.num_max) if as_int else self.num_max,
                    "mean": round(self.mean, 6),
                    "median": statistics.median(self.numbers) if self.numbers else None,
                    "std": round(std, 6),
                }
            )
            if len(self.numbers) < self.numeric_seen:
                result["median_note"] = f"median of the first {len(self.numbers)} values"
        elif kind in ("date", "datetime") and self.temporal_min is not None:
            fmt = "%Y-%m-%d" if kind == "date" else "%Y-%m-%dT%H:%M:%S"
            result["min"] = self.temporal_min.strftime(fmt)
            result["max"] = self.temporal_max.strftime(fmt) if self.temporal_max else None
        if len(self.text_counts) >= DISTINCT_CAP:
            result["top_values_note"] = f"frequencies counted for the first {DISTINCT_CAP} distinct values only"
        if kind in ("text", "boolean") or (present and not self.distinct_capped and len(self.distinct) <= top):
            result["top_values"] = [[value, n] for value, n in self.text_counts.most_common(top)]
        if kind == "text":
            result["max_length"] = self.max_length
        return result


def profile(path: str, delimiter: str | None, encoding: str, max_rows: int | None, top: int) -> dict[str, object]:
    with open(path, newline="", encoding=encoding, errors="replace") as handle:
        sample = handle.read(64 * 1024)
        handle.seek(0)
        if delimiter is None:
            try:
                delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
            except csv.Error:
                delimiter = ","
        reader = csv.reader(handle, delimiter=delimiter)
        try:
            header = next(reader)
        except StopIteration:
            return {"file": path, "rows": 0, "columns": [], "warnings": ["file is empty"]}

        names = [name.strip() or f"column_{i + 1}" for i, name in enumerate(header)]
        warnings: list[str] = []
        duplicates = sorted(n for n, c in Counter(names).items() if c > 1)
        if duplicates:
            warnings.append(f"duplicate column names: {', '.join(duplicates)}")
        columns = [ColumnProfile(name) for name in names]
        ragged = 0
        rows = 0
        blank_rows = 0
        for row in reader:
            if max_rows is not None and rows >= max_rows:
                warnings.append(f"stopped after {max_rows} rows (--max-rows)")
                break
            if not any(cell.strip() for cell in row):
                blank_rows += 1
                continue
            rows += 1
            if len(row) != len(columns):
                ragged += 1
            for index, column in enumerate(columns):
                column.add(row[index] if index < len(row) else "")
        if ragged:
            warnings.append(f"{ragged} rows have a different number of fields than the header")
        if blank_rows:
            warnings.append(f"{blank_rows} blank rows skipped")

    return {
        "file": path,
        "delimiter": delimiter,
        "rows": rows,
        "column_count": len(columns),
        "columns": [column.report(top) for column in columns],
        "warnings": warnings,
    }


def format_value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def print_text(result: dict[str, object]) -> None:
    print(f"File: {result['file']}")
    print(f"Rows: {result['rows']}   Columns: {result.get('column_count', 0)}   Delimiter: {result.get('delimiter')!r}")
    for warning in result.get("warnings", []):  # type: ignore[union-attr]
        print(f"WARNING: {warning}")
    print()
    for col in result["columns"]:  # type: ignore[union-attr]
        distinct = col["distinct"] if col["distinct"] is not None else f">{DISTINCT_CAP}"
        print(f"== {col['column']}  [{col['type']}]")
        print(f"   missing: {col['missing']} ({col['missing_pct']}%)   distinct: {distinct}")
        if "mixed_kinds" in col:
            kinds = ", ".join(f"{k}={v}" for k, v in col["mixed_kinds"].items())
            print(f"   mixed values: {kinds}")
        if "mean" in col:
            print(
                "   min: {}  max: {}  mean: {}  median: {}  std: {}".format(
                    *(format_value(col[k]) for k in ("min", "max", "mean", "median", "std"))
                )
            )
            if "median_note" in col:
                print(f"   note: {col['median_note']}")
        elif "min" in col:
            print(f"   range: {col['min']} .. {col['max']}")
        if "max_length" in col:
            print(f"   longest value: {col['max_length']} chars")
        if col.get("top_values"):
            shown = ", ".join(f"{value!r} x{n}" for value, n in col["top_values"])
            print(f"   top values: {shown}")
            if "top_values_note" in col:
                print(f"   note: {col['top_values_note']}")
        print()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Profile a CSV file (standard library only).")
    parser.add_argument("path", help="CSV file to profile")
    parser.add_argument("--delimiter", help="field delimiter (default: sniffed from the file)")
    parser.add_argument("--encoding", default="utf-8-sig", help="text encoding (default: utf-8-sig)")
    parser.add_argument("--max-rows", type=int, default=None, help="stop after this many data rows")
    parser.add_argument("--top", type=int, default=5, help="how many frequent values to list")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    args = parser.parse_args(argv)

    if args.delimiter == "\\t":
        args.delimiter = "\t"
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    try:
        result = profile(args.path, args.delimiter, args.encoding, args.max_rows, args.top)
    except FileNotFoundError:
        print(f"error: file not found: {args.path}", file=sys.stderr)
        return 2
    except (OSError, csv.Error, LookupError) as exc:
        print(f"error: could not read {args.path}: {exc}", file=sys.stderr)
        return 1

    try:
        if args.json:
            print(json.dumps(result, indent=2, ensure_ascii=False, default=str))
        else:
            print_text(result)
    except BrokenPipeError:
        # Output was piped into head or similar; that is not an error.
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
