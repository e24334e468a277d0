"""Verdict of one upstream e2e test from its go test2json events.

Usage: verdict.py <prefix>   reads <prefix>.json (test2json events), <prefix>.rc and <prefix>.seconds
Prints one tab-separated line: verdict (pass | fail), seconds, and for a failure the first reason found
(testify's "Error:" / "Messages:" lines, a panic, a timeout, or that no test matched or the process died).
A test counts as passed only when test2json reported "pass" for the subtest itself.
"""
import json
import os
import re
import sys


def read(path, default=""):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def main(prefix):
    name = os.path.basename(prefix).replace("__", "/")
    seconds = read(prefix + ".seconds", "?").strip()
    rc = read(prefix + ".rc", "?").strip()
    action, output, suite_skipped = None, [], False
    suite = name.split("/", 1)[0]
    for line in read(prefix + ".json").splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if ev.get("Test") == suite and ev.get("Action") == "skip":
            suite_skipped = True
        if ev.get("Test") != name:
            continue
        if ev.get("Action") in ("pass", "fail", "skip"):
            action = ev["Action"]
        elif ev.get("Action") == "output":
            output.append(ev.get("Output", ""))
    if action == "pass":
        print(f"pass\t{seconds}\t")
        return
    reason = ""
    lines = [l.strip() for l in "".join(output).splitlines()]
    for i, l in enumerate(lines):
        if l.startswith("Error:") and not reason:
            reason = l[len("Error:"):].strip()
            for nxt in lines[i + 1:i + 4]:
                if nxt.startswith("Messages:"):
                    reason = (nxt[len("Messages:"):].strip() + ": " + reason).strip(": ")
                    break
                if nxt and not nxt.startswith(("Test:", "Error Trace:")):
                    reason += " " + nxt
        elif l.startswith("panic:") and not reason:
            reason = l
        elif ("level=error" in l or "level=fatal" in l) and "msg=" in l and not reason:
            # The suite's own checks log their failure through logrus before failing the test.
            reason = l.split("msg=", 1)[1].split('" ', 1)[0].strip('"')
        elif re.match(r"^[\w-]+\.go:\d+: \S", l) and not reason:
            # t.Fatalf / t.Errorf from the suite's fixtures: "when.go:555: timeout after 1m0s waiting for ..."
            reason = l.split(": ", 1)[1]
    if action == "skip":
        reason = "skipped: " + (reason or " ".join(l for l in lines if l)[:200])
    elif action is None and suite_skipped:
        reason = "skipped: the suite skipped itself (what it needs is not installed)"
    elif action is None:
        reason = f"test did not run to an end (no verdict; process exit code {rc})"
        for l in read(prefix + ".stderr").splitlines() + lines:
            if "panic:" in l or "timed out" in l:
                reason += ": " + l.strip()
                break
    print(f"fail\t{seconds}\t{' '.join(reason.split())[:300]}")


if __name__ == "__main__":
    main(sys.argv[1])
