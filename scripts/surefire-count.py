#!/usr/bin/env python3
"""Adds up one run's surefire reports, for ./test.

    surefire-count.py LABEL RESULTS FAILURES MODULE...

Prints a line per module (tests, failed, skipped) and, under it, each test that failed or broke
with the first line of its message. Appends "LABEL<TAB>TESTS<TAB>FAILED<TAB>SKIPPED" to RESULTS and
"on libfuse LABEL: Class.method: message" per failure to FAILURES. A module without reports did
not run (its build broke, or that of a module it needs) and counts as one failure.
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET

MESSAGE = 400  # characters of a failure's message kept: enough to tell one failure from another


def first_line(element):
    text = (element.get("message") or element.text or "").strip()
    line = text.splitlines()[0] if text else element.get("type", "")
    return line if len(line) <= MESSAGE else line[:MESSAGE] + "..."


def main(label, results, failures, modules):
    tests = failed = skipped = 0
    lost = []
    print(f"\n=== results of libfuse {label}")  # after the line Maven may leave unended
    for module in modules:
        reports = sorted(glob.glob(os.path.join(module, "target", "surefire-reports", "TEST-*.xml")))
        if not reports:
            print(f"  {module:<26} did not run")
            lost.append(f"{module} did not run")
            failed += 1
            continue
        t = f = s = 0
        broken = []
        for report in reports:
            suite = ET.parse(report).getroot()
            t += int(suite.get("tests", 0))
            f += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            s += int(suite.get("skipped", 0))
            for case in suite.iter("testcase"):
                for kind in ("failure", "error"):
                    for problem in case.findall(kind):
                        cls = case.get("classname", "").rsplit(".", 1)[-1]
                        broken.append(f"{cls}.{case.get('name')}: {first_line(problem)}")
        print(f"  {module:<26} {t:4d} tests, {f} failed, {s} skipped")
        for b in broken:
            print(f"    failed: {b}")
        lost += broken
        tests, failed, skipped = tests + t, failed + f, skipped + s
    with open(results, "a") as out:
        out.write(f"{label}\t{tests}\t{failed}\t{skipped}\n")
    with open(failures, "a") as out:
        for line in lost:
            out.write(f"  on libfuse {label}: {line}\n")


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
