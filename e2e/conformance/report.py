"""Writes docs/conformance.md from a Rollgate run and the stored baseline.

Usage: report.py <results.tsv> <baseline.tsv> <deviations.tsv> <upstream version>
results/baseline rows: test, verdict, seconds, first failure. deviations rows: test, kind, reason, where kind is
"deviation" (a deliberate difference, with its reason) or "open" (a known gap, with the issue or cause).
"""
import datetime
import sys


def rows(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            out[cols[0]] = cols[1:] + [""] * (3 - len(cols[1:]))
    return out


def main(results_path, baseline_path, deviations_path, version):
    results, baseline = rows(results_path), rows(baseline_path)
    deviations = rows(deviations_path)
    with open(baseline_path, encoding="utf-8") as f:
        baseline_note = f.readline().lstrip("# ").strip()
    with open(results_path, encoding="utf-8") as f:
        runs = [line.lstrip("# ").strip() for line in f if line.startswith("#")]
    passed = [t for t, r in results.items() if r[0] == "pass"]
    failed = [t for t, r in results.items() if r[0] != "pass"]
    deliberate = [t for t in failed if deviations.get(t, [""])[0] == "deviation"]
    base_failed = [t for t, r in baseline.items() if r[0] != "pass"]
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    p = print
    p("# Conformance with Argo Rollouts")
    p()
    p(f"Upstream's own end-to-end suite (`test/e2e` of `github.com/argoproj/argo-rollouts` {version}), run against")
    p("Rollgate's controller by `bin/conformance` on the local control plane (kwok: pods are simulated, see")
    p("`e2e/conformance/kwok-stages.yaml` for the pod behaviours the Stages model). The tests selected are those that pass")
    p(f"with upstream's own controller on the same cluster (`bin/conformance --baseline`; {baseline_note}).")
    p("The Argo Rollouts behaviours Rollgate implements, section by section with its deliberate deviations: "
      "[compatibility.md](compatibility.md).")
    p()
    p(f"Runs: {'; then '.join(runs) if runs else today}.")
    p()
    p(f"**{len(passed)} passed, {len(failed)} failed** of {len(results)} selected "
      f"({len(deliberate)} of the failures {'is a deliberate deviation' if len(deliberate) == 1 else 'are deliberate deviations'}, "
      "listed with their reason). "
      f"{len(base_failed)} of the suite's {len(baseline)} tests fail with upstream's controller here and are "
      "listed at the end.")
    causes = {}
    for t in failed:
        d = deviations.get(t)
        key = d[1].split(" (issue")[0] if d and "(issue" in d[1] else ("deviation" if d and d[0] == "deviation" else "other")
        causes[key] = causes.get(key, 0) + 1
    p()
    p("Failures by cause: " + "; ".join(f"{n}: {c}" for c, n in sorted(causes.items(), key=lambda x: -x[1])) + ".")
    p()
    p("This file is written by `bin/conformance`; the reasons come from `e2e/conformance/deviations.tsv`.")
    p()
    p("## Selected tests")
    p()
    p("| test | Rollgate | seconds | note |")
    p("|---|---|---|---|")
    for t, r in results.items():
        note = ""
        if r[0] != "pass":
            d = deviations.get(t)
            note = (f"{d[0]}: {d[1]}" if d else "") or r[2]
            if d and r[2]:
                note += f" (seen: {r[2]})"
        p(f"| `{t}` | {r[0]} | {r[1]} | {note.replace('|', '/')} |")
    p()
    p("## Tests that fail with upstream's controller on this cluster")
    p()
    p("Not selected; most need a data plane or real containers the simulated pods do not have.")
    p()
    p("| test | reason seen with upstream's controller |")
    p("|---|---|")
    for t in base_failed:
        d = deviations.get(t)
        note = f"{d[1]}" if d else baseline[t][2]
        p(f"| `{t}` | {note.replace('|', '/')} |")


if __name__ == "__main__":
    main(*sys.argv[1:5])
