"""Docker's .dockerignore rules, as its documentation and its matcher (moby/patternmatcher)
apply them, to check which files of this checkout a `COPY . .` would send.

Each pattern is cleaned (leading and trailing slashes dropped) and anchored at the top of
the build context; `*` and `?` stay within one path segment, `**` spans any number of them;
a path is excluded when a pattern matches it or one of its parent folders; `!` patterns
re-include, and the last pattern that matches a path decides.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern
    exclusion: bool  # a `!` pattern: what it matches goes back in


def read_patterns(path: Path) -> list[Pattern]:
    patterns = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        exclusion = line.startswith("!")
        cleaned = posixpath.normpath(line.removeprefix("!").strip()).lstrip("/")
        patterns.append(Pattern(re.compile(_regex(cleaned)), exclusion))
    return patterns


def _regex(pattern: str) -> str:
    out, i = "^", 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if pattern.startswith("/", i):
                i += 1  # "**/" matches zero or more whole folders
            out += ".*" if i >= len(pattern) else "(.*/)?"
            continue
        if char == "*":
            out += "[^/]*"
        elif char == "?":
            out += "[^/]"
        elif char == "\\" and i + 1 < len(pattern):
            i += 1
            out += re.escape(pattern[i])
        elif char == "[":
            end = pattern.index("]", i)
            out += pattern[i : end + 1]
            i = end
        else:
            out += re.escape(char)
        i += 1
    return out + "$"


def is_excluded(relative: str, patterns: list[Pattern]) -> bool:
    parents = relative.split("/")[:-1]
    candidates = [relative, *("/".join(parents[: n + 1]) for n in range(len(parents)))]
    excluded = False
    for pattern in patterns:
        if pattern.exclusion != excluded:
            continue  # only a `!` can change an excluded path, only a plain one a kept path
        if any(pattern.regex.match(candidate) for candidate in candidates):
            excluded = not pattern.exclusion
    return excluded


def sent_files(root: Path, patterns: list[Pattern]) -> list[str]:
    """The files of the folder `root` that a build with it as context receives."""
    sent = []
    for folder, dirs, files in os.walk(root):
        relative = Path(folder).relative_to(root).as_posix()
        prefix = "" if relative == "." else f"{relative}/"
        dirs[:] = [name for name in dirs if not is_excluded(prefix + name, patterns)]
        sent += [prefix + name for name in files if not is_excluded(prefix + name, patterns)]
    return sent
