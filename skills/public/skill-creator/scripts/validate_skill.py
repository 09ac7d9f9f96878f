"""Check a skill folder before saving or installing it, and optionally package it.

Usage:
    python3 validate_skill.py SKILL_DIR
    python3 validate_skill.py SKILL_DIR --package OUTPUT_DIR

The checks mirror the install-time validation rules (frontmatter, name,
description, allowed keys, package layout) and flag content the security scan
is likely to reject. Exit code 0 means no errors (warnings may remain), 1 means
at least one error, 2 means bad usage.

With --package the folder is zipped into OUTPUT_DIR/<name>.skill, with the
skill folder as the single top-level directory of the archive. Packaging only
happens when there are no errors. Only the standard library is required;
PyYAML is used for parsing when it is installed.
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from pathlib import Path

try:  # Optional: exact YAML semantics when available.
    import yaml  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - depends on the sandbox image
    yaml = None

FRONTMATTER_RE = re.compile(r"^---\s*\n(.*?)\n---\s*\n?", re.DOTALL)
NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ALLOWED_KEYS = {
    "name",
    "description",
    "license",
    "allowed-tools",
    "required-secrets",
    "secrets-autonomous",
    "metadata",
    "compatibility",
    "version",
    "author",
}
SUPPORT_DIRS = {"references", "templates", "scripts", "assets"}
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".7z", ".rar", ".whl")
BINARY_MAGIC = (b"\x7fELF", b"MZ", b"\xfe\xed\xfa", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe")
MAX_FILE_BYTES = 64 * 1024 * 1024
SKIP_NAMES = {"__pycache__", ".DS_Store"}

# Content patterns the security scan is known to object to. The checks are
# intentionally simple; the install-time scanner remains authoritative.
RISKY_TEXT = [
    (re.compile(r"-{5}BEGIN [A-Z0-9 ]*PRIVATE KEY-{5}"), "embedded private key"),
    (re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"), "cloud access key id"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9_]{20,}\b"), "GitHub token"),
    (re.compile(r"\bsk-[A-Za-z0-9]{20,}\b"), "API key"),
    (re.compile(r"\bhttp:/{2}[A-Za-z0-9.-]+"), "plain-HTTP link (use https)"),
    (re.compile(r"169\.254\.169\.254|metadata\.google\.internal"), "cloud metadata address"),
]
RISKY_SKILL_MD = [
    (
        re.compile(r"(?i)\b(ignore|disregard)\s+(all\s+)?(previous|prior)\s+instructions\b"),
        "prompt-override phrase",
    ),
    (
        re.compile(r"(?i)\boverride\s+(the\s+)?(system|developer)\s+instructions\b"),
        "prompt-override phrase",
    ),
    (
        re.compile(
            r"(?i)(execute\s+(arbitrary\s+)?commands?|shell\s+commands?|credential\s+access"
            r"|read\s+secrets?|arbitrary\s+network|network\s+egress)"
        ),
        "wording that declares a sensitive capability",
    ),
]


class Report:
    def __init__(self) -> None:
        self.errors: list[str] = []
        self.warnings: list[str] = []

    def error(self, message: str) -> None:
        self.errors.append(message)

    def warn(self, message: str) -> None:
        self.warnings.append(message)


def parse_frontmatter(text: str) -> object:
    """Parse YAML frontmatter; fall back to a small reader for common shapes.

    The fallback understands plain and quoted scalars, folded or literal
    blocks (>, >-, |, |-), flat lists and one level of nested maps, which is
    all a SKILL.md frontmatter normally needs.
    """
    if yaml is not None:
        return yaml.safe_load(text)
    data: dict[str, object] = {}
    key: str | None = None
    mode = ""  # "block", "pending" (value on following lines) or "" (done)
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] in " \t":
            if key is None or (mode == "" and not isinstance(data[key], str)):
                raise ValueError(f"unexpected indented line: {line!r}")
            item = line.strip()
            if mode in ("block", ""):  # folded block or multi-line plain scalar
                data[key] = (str(data[key]) + " " + item).strip()
            elif item.startswith("- "):
                items = data[key] if isinstance(data[key], list) else []
                items.append(item[2:].strip().strip("\"'"))
                data[key] = items
            else:
                sub_key, sep, sub_value = item.partition(":")
                if not sep:
                    raise ValueError(f"cannot parse line: {line!r}")
                nested = data[key] if isinstance(data[key], dict) else {}
                nested[sub_key.strip()] = sub_value.strip().strip("\"'")
                data[key] = nested
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"cannot parse line: {line!r}")
        key = name.strip()
        value = value.strip()
        if value in (">", ">-", "|", "|-"):
            data[key], mode = "", "block"
        elif value == "":
            data[key], mode = None, "pending"
        else:
            data[key], mode = value.strip("\"'"), ""
    return data


def check_frontmatter(skill_dir: Path, report: Report) -> str | None:
    skill_md = skill_dir / "SKILL.md"
    if not skill_md.is_file():
        report.error("SKILL.md not found")
        return None
    raw = skill_md.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        report.error("SKILL.md starts with a byte-order mark; the frontmatter will not be found")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        report.error("SKILL.md is not valid UTF-8")
        return None
    match = FRONTMATTER_RE.match(text)
    if not match:
        report.error("No YAML frontmatter found (the file must start with a line containing only ---)")
        return None
    try:
        data = parse_frontmatter(match.group(1))
    except Exception as exc:  # YAML errors have many types
        report.error(f"Invalid YAML in frontmatter: {exc}")
        return None
    if not isinstance(data, dict):
        report.error("Frontmatter must be a YAML dictionary")
        return None

    unknown = sorted(str(k) for k in data if str(k) not in ALLOWED_KEYS)
    if unknown:
        report.error(f"Unexpected key(s) in SKILL.md frontmatter: {', '.join(unknown)}")

    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        report.error("Missing or empty 'name' in frontmatter")
        name = None
    else:
        name = name.strip()
        if not NAME_RE.match(name):
            report.error(f"Name '{name}' must be hyphen-case: lowercase letters, digits, single hyphens")
        if len(name) > 64:
            report.error(f"Name is too long ({len(name)} characters). Maximum is 64 characters.")
        if name != skill_dir.name:
            report.warn(f"Folder name '{skill_dir.name}' differs from name '{name}'; keep them equal")

    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        report.error("Missing or empty 'description' in frontmatter")
    else:
        description = description.strip()
        if "<" in description or ">" in description:
            report.error("Description cannot contain angle brackets (< or >)")
        if len(description) > 1024:
            report.error(f"Description is too long ({len(description)} characters). Maximum is 1024 characters.")
        if len(description) < 80:
            report.warn(f"Description is short ({len(description)} characters); say what it does and when to use it")
        if not re.search(r"(?i)\b(use when|use for|use it|when the user|triggers?)\b", description):
            report.warn("Description does not say when to use the skill (e.g. 'Use when the user asks ...')")

    tools = data.get("allowed-tools")
    if tools is not None:
        if not isinstance(tools, list) or not all(isinstance(t, str) and t.strip() for t in tools):
            report.error("allowed-tools must be a list of non-empty strings")
    if "secrets-autonomous" in data and not isinstance(data["secrets-autonomous"], bool):
        report.error("secrets-autonomous must be a boolean")
    if "required-secrets" in data and not isinstance(data["required-secrets"], list):
        report.error("required-secrets must be a list")
    metadata = data.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        report.error("metadata must be a map of keys to values")

    body = text[match.end():]
    body_lines = body.strip().splitlines()
    if not body_lines:
        report.error("SKILL.md has no instructions after the frontmatter")
    elif len(body_lines) > 500:
        report.warn(f"SKILL.md body has {len(body_lines)} lines; move detail into references/")
    for pattern, label in RISKY_SKILL_MD:
        if pattern.search(body):
            report.warn(f"SKILL.md contains {label}; rephrase it")
    check_referenced_paths(skill_dir, body, name, report)
    return name


def check_referenced_paths(skill_dir: Path, body: str, name: str | None, report: Report) -> None:
    """Warn when SKILL.md points at bundled files that do not exist."""
    if not name:
        return
    prefix = re.compile(r"/mnt/skills/(?:public|custom)/" + re.escape(name) + r"/([A-Za-z0-9_./-]+)")
    for match in prefix.finditer(body):
        relative = match.group(1).rstrip(".,;:)`")
        if relative and not (skill_dir / relative).exists():
            report.warn(f"SKILL.md refers to {relative}, which is not in the folder")


def check_files(skill_dir: Path, report: Report) -> list[Path]:
    files: list[Path] = []
    for path in sorted(skill_dir.rglob("*")):
        rel = path.relative_to(skill_dir)
        if any(part in SKIP_NAMES for part in rel.parts):
            continue
        if any(part.startswith(".") for part in rel.parts):
            report.error(f"{rel}: hidden files and folders are not allowed in a skill")
            continue
        if path.is_symlink():
            report.error(f"{rel}: symbolic links are not allowed")
            continue
        if path.is_dir():
            continue
        files.append(path)
        if rel.name == "SKILL.md" and len(rel.parts) > 1:
            report.error(f"{rel}: nested SKILL.md files are not allowed")
        if len(rel.parts) > 1 and rel.parts[0] not in SUPPORT_DIRS:
            report.warn(f"{rel}: support files belong in one of {', '.join(sorted(SUPPORT_DIRS))}")
        if str(rel).lower().endswith(ARCHIVE_SUFFIXES):
            report.error(f"{rel}: archives inside a skill are not allowed")
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            report.error(f"{rel}: file is larger than 64 MiB")
            continue
        with path.open("rb") as handle:
            head = handle.read(8)
            handle.seek(0)
            content = handle.read()
        if head.startswith(BINARY_MAGIC):
            report.error(f"{rel}: executable binaries are not allowed")
            continue
        if b"\x00" in content[:4096]:
            continue  # binary asset such as an image; nothing to scan
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            report.warn(f"{rel}: not valid UTF-8")
            continue
        for pattern, label in RISKY_TEXT:
            if pattern.search(text):
                report.error(f"{rel}: contains {label}")
    return files


def package(skill_dir: Path, name: str, files: list[Path], output_dir: Path) -> Path:
    output_dir.mkdir(parents=True, exist_ok=True)
    target = output_dir / f"{name}.skill"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            arcname = Path(name) / path.relative_to(skill_dir)
            archive.write(path, arcname.as_posix())
    return target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Validate (and optionally package) a skill folder.")
    parser.add_argument("skill_dir", help="folder that contains SKILL.md")
    parser.add_argument("--package", metavar="OUTPUT_DIR", help="write OUTPUT_DIR/<name>.skill when valid")
    args = parser.parse_args(argv)

    skill_dir = Path(args.skill_dir)
    if not skill_dir.is_dir():
        print(f"error: not a folder: {skill_dir}", file=sys.stderr)
        return 2

    report = Report()
    name = check_frontmatter(skill_dir, report)
    files = check_files(skill_dir, report)

    for message in report.errors:
        print(f"ERROR   {message}")
    for message in report.warnings:
        print(f"WARNING {message}")
    if report.errors:
        print(f"\n{len(report.errors)} error(s), {len(report.warnings)} warning(s). Fix the errors first.")
        return 1
    print(f"OK: '{name}' is valid ({len(files)} files, {len(report.warnings)} warning(s)).")

    if args.package and name:
        target = package(skill_dir, name, files, Path(args.package))
        print(f"Packaged {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
