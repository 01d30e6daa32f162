#!/usr/bin/env python3
"""Reads the JUnit reports of a test pass (CTest's --output-junit, pytest's --junitxml) and lists
every skipped test with its reason. With --strict (scripts/test.sh under CI=true) a skip whose
reason is not on the allow-list below fails: exit codes alone cannot tell a test that ran from one
that skipped, and a skip is where a broken feature hides.

usage: check_skips.py [--strict] REPORT.xml [REPORT.xml ...]
"""
import re
import sys
import xml.etree.ElementTree as ET

# What may be absent on a machine that runs the whole suite, each with why. Anything else that
# skips (a missing corpus, OpenGL, Dask, CUDA headers, pkg-config, memory) means a broken setup.
ALLOWED = [
    (r"no usable GPU: |no CUDA device drives the OpenGL context",
     "no GPU here, as the GPU probe says (CI has none)"),
    (r"a (usable )?GPU is (usable|present) here|a CUDA device drives this OpenGL context",
     "a GPU is here, so a no-GPU refusal cannot happen (or another test covers the GPU case)"),
    (r"this CPU (has no|does not support) (AVX-512|FACET_ISA=avx512)",
     "the CPU lacks AVX-512, which facet chooses at run time"),
    (r"the default run covers it",
     "a forced vector path that is this CPU's default path, already run unforced"),
    (r"under ThreadSanitizer resident memory|ulimit -v cannot be combined with the sanitizers",
     "a memory bound a sanitizer's shadow memory makes meaningless (the normal pass runs it)"),
    (r"pyrender is optional",
     "pyrender comes only from PyPI, an optional comparison the build never needs"),
    (r"transparent huge pages are off here",
     "the kernel offers no huge pages (a machine's setting; the loaders then use ordinary pages)"),
]


def skip_reason(case):
    """The reason a skipped <testcase> gives, or None where it ran."""
    skipped = case.find("skipped")
    if skipped is None and case.get("status") != "notrun":
        return None
    message = (skipped.get("message", "") if skipped is not None else "") or ""
    output = case.findtext("system-out") or ""
    # A GoogleTest skip prints "file:line: Skipped" and then its reason.
    match = re.search(r": Skipped\n(.*)", output)
    if match:
        return match.group(1).strip()
    if message and message != "SKIP_REGULAR_EXPRESSION_MATCHED":
        return message.strip()
    body = (skipped.text if skipped is not None else "") or output
    return body.strip().splitlines()[0] if body.strip() else "(no reason given)"


def main(argv):
    strict = "--strict" in argv
    reports = [a for a in argv if a != "--strict"]
    if not reports:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    refused = 0
    for report in reports:
        try:
            root = ET.parse(report).getroot()
        except (OSError, ET.ParseError) as e:
            print(f"check_skips: cannot read {report}: {e}", file=sys.stderr)
            return 1
        cases = list(root.iter("testcase"))
        skips = [(c, skip_reason(c)) for c in cases]
        skips = [(c, r) for c, r in skips if r is not None]
        print(f"== facet: {report}: {len(cases)} tests, {len(skips)} skipped")
        for case, reason in skips:
            name = case.get("name", "?")
            if case.get("classname") and case.get("classname") != name:
                name = f"{case.get('classname')}::{name}"
            allowed = next((why for pattern, why in ALLOWED if re.search(pattern, reason)), None)
            if allowed:
                print(f"   skipped  {name}: {reason}  [allowed: {allowed}]")
            else:
                refused += 1
                print(f"   SKIPPED  {name}: {reason}  [not on the allow-list in scripts/check_skips.py]")
    if refused and strict:
        print(f"== facet: {refused} skip(s) not on the allow-list: under CI=true every such test must run",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
