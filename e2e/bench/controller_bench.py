"""Side-by-side cost of Rollgate's controller and upstream Argo Rollouts' controller (bin/controller-bench).

Each run: a fresh namespace, the controller started alone and watching only that namespace, N canary Rollouts created
(2 replicas; steps setWeight 50, pause 5s), all Healthy, then every Rollout's image changed and all Healthy again.
Figures per run, for each controller:
  - seconds and controller CPU seconds until all Healthy after the start (cold start: list, sync, first revision);
  - resident set size (RSS) when all are Healthy;
  - seconds, CPU seconds and peak RSS for the update of all Rollouts;
  - API requests per Rollout update as the API server saw them: writes from its audit log (the controller's own
    requests in the namespace), reads (GET) from the API server's apiserver_request_total for the kinds only the
    controller reads by name here; the same figures by verb and resource.
Runs alternate between the controllers so that both see the same machine load. Rollgate runs as the chart deploys it:
the JVM flags of the chart's controller.javaOpts (--rollgate-java-opts) with -XX:MaxRAM set to the chart's container
memory limit (--rollgate-memory-limit), so the heap is sized as in the Pod.

Usage: controller_bench.py --kubeconfig K --kubectl PATH --audit-log PATH --rollgate-jar JAR
       --argo-bin BIN --rollgate-crds DIR --argo-crds DIR [--rollouts N] [--runs R] [--controllers rollgate,argo]
       [--rollgate-java-opts "FLAGS"] [--rollgate-memory-limit 768Mi]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
from datetime import datetime, timezone

READ_KINDS = ("rollouts", "rollouts/status", "replicasets", "services", "analysisruns", "experiments", "ingresses")
OTHER_AGENTS = ("kube-controller-manager", "kube-scheduler", "kwok", "kubectl", "kube-apiserver")


def main():
    ap = argparse.ArgumentParser()
    for flag in ("kubeconfig", "kubectl", "audit-log", "rollgate-jar", "argo-bin", "rollgate-crds", "argo-crds"):
        ap.add_argument("--" + flag, required=True)
    ap.add_argument("--rollgate-java-opts", default="", help="JVM flags (the chart's controller.javaOpts)")
    ap.add_argument("--rollgate-memory-limit", default="", help="container memory limit, e.g. 768Mi (-XX:MaxRAM)")
    ap.add_argument("--rollouts", type=int, default=100)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--controllers", default="rollgate,argo")
    ap.add_argument("--timeout", type=int, default=900, help="seconds to wait for all Healthy")
    a = ap.parse_args()
    bench = Bench(a)
    results = {c: [] for c in a.controllers.split(",")}
    for run in range(1, a.runs + 1):
        for ctrl in results:
            r = bench.run(ctrl, run)
            results[ctrl].append(r)
            print(f"run {run} {ctrl}: " + json.dumps({k: v for k, v in r.items() if k != "by_kind"}), flush=True)
    report(results, a.rollouts)


def max_ram(limit):
    """-XX:MaxRAM for a Kubernetes memory quantity (Mi, Gi, M, G or bytes): what a container limit shows the JVM."""
    if not limit:
        return []
    m = re.fullmatch(r"(\d+)(Ki|Mi|Gi|K|M|G)?", limit.strip())
    if not m:
        raise SystemExit(f"--rollgate-memory-limit: not a memory quantity: {limit!r}")
    unit = {"Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3, "K": 1000, "M": 1000 ** 2, "G": 1000 ** 3}.get(m.group(2), 1)
    return [f"-XX:MaxRAM={int(m.group(1)) * unit}"]


class Bench:
    def __init__(self, a):
        self.a = a
        self.n = a.rollouts

    def k(self, *args, inp=None, check=True):
        return subprocess.run([self.a.kubectl, "--kubeconfig", self.a.kubeconfig, *args], input=inp,
                              capture_output=True, text=True, check=check).stdout

    def run(self, ctrl, run):
        ns = f"bench-{ctrl}-{run}-{int(time.time())}"
        crds = self.a.rollgate_crds if ctrl == "rollgate" else self.a.argo_crds
        how = "-k" if os.path.exists(os.path.join(crds, "kustomization.yaml")) else "-f"
        self.k("apply", "--server-side", "--force-conflicts", how, crds)
        self.k("wait", "--for", "condition=established", "--timeout=60s", "crd", "--all")
        self.k("create", "namespace", ns)
        self.k("apply", "-f", "-", inp=self.manifests(ns, "registry.example/app:v1"))
        log = open(f"/tmp/controller-bench-{ns}.log", "w")
        if ctrl == "rollgate":
            cmd = ["java", *self.a.rollgate_java_opts.split(), *max_ram(self.a.rollgate_memory_limit), "-jar",
                   self.a.rollgate_jar, "--kubeconfig", self.a.kubeconfig, "--namespace", ns,
                   "--leader-elect=false", "--metricsport", "18090", "--healthzPort", "18091"]
        else:
            cmd = [self.a.argo_bin, "--kubeconfig", self.a.kubeconfig, "--namespaced", "--namespace", ns,
                   "--leader-elect=false", "--metricsport", "18090", "--healthzPort", "18091", "--loglevel", "warn"]
        started = time.time()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        try:
            self.await_healthy(ns, "registry.example/app:v1", proc)
            healthy_s = time.time() - started
            cpu_start = cpu_seconds(proc.pid)
            rss_healthy = rss_mib(proc.pid)
            time.sleep(3)
            before_gets = self.gets()
            since = datetime.now(timezone.utc)
            cpu0 = cpu_seconds(proc.pid)
            t0 = time.time()
            self.k("apply", "-f", "-", inp=self.manifests(ns, "registry.example/app:v2"))
            peak = self.await_healthy(ns, "registry.example/app:v2", proc)
            update_s = time.time() - t0
            cpu_update = cpu_seconds(proc.pid) - cpu0
            time.sleep(3)
            gets = {k: v - before_gets.get(k, 0) for k, v in self.gets().items() if v - before_gets.get(k, 0) > 0}
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        writes = self.writes(ns, since)
        self.k("delete", "namespace", ns, "--wait=false")
        by_kind = {f"{verb} {kind}": c / self.n for (verb, kind), c in writes.items()}
        by_kind.update({f"get {kind}": c / self.n for kind, c in gets.items()})
        return {
            "healthy_s": round(healthy_s, 1),
            "cpu_until_healthy_s": round(cpu_start, 1),
            "rss_healthy_mib": round(rss_healthy, 1),
            "update_s": round(update_s, 1),
            "cpu_update_s": round(cpu_update, 1),
            "rss_peak_update_mib": round(peak, 1),
            "writes_per_update": round(sum(writes.values()) / self.n, 2),
            "gets_per_update": round(sum(gets.values()) / self.n, 2),
            "by_kind": by_kind,
        }

    def manifests(self, ns, image):
        docs = []
        for i in range(self.n):
            name = f"r{i}"
            docs.append(f"""apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {{name: {name}, namespace: {ns}}}
spec:
  replicas: 2
  revisionHistoryLimit: 2
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec: {{containers: [{{name: app, image: "{image}"}}]}}
  strategy:
    canary:
      steps: [{{setWeight: 50}}, {{pause: {{duration: 5s}}}}]
""")
        return "---\n".join(docs)

    def await_healthy(self, ns, image, proc):
        """Waits until every Rollout is Healthy on the image; returns the peak RSS seen meanwhile (MiB)."""
        deadline = time.time() + self.a.timeout
        peak = 0.0
        while True:
            if proc.poll() is not None:
                sys.exit(f"the controller exited with {proc.returncode}; log /tmp/controller-bench-{ns}.log")
            peak = max(peak, rss_mib(proc.pid))
            items = json.loads(self.k("get", "rollouts.argoproj.io", "-n", ns, "-o", "json"))["items"]
            done = sum(1 for r in items if healthy(r, image))
            if done == self.n:
                return peak
            if time.time() > deadline:
                sys.exit(f"{done} of {self.n} Rollouts Healthy on {image} after {self.a.timeout} s in {ns}")
            time.sleep(1)

    def gets(self):
        out = {}
        for line in self.k("get", "--raw", "/metrics").splitlines():
            if not line.startswith("apiserver_request_total{") or 'verb="GET"' not in line:
                continue
            res = re.search(r'resource="([^"]*)"', line).group(1)
            sub = re.search(r'subresource="([^"]*)"', line)
            kind = res + ("/" + sub.group(1) if sub and sub.group(1) else "")
            if kind in READ_KINDS:
                out[kind] = out.get(kind, 0) + float(line.rsplit(" ", 1)[1])
        return out

    def writes(self, ns, since):
        counts = {}
        stamp = since.strftime("%Y-%m-%dT%H:%M:%S.%f")
        with open(self.a.audit_log, encoding="utf-8") as f:
            for line in f:
                if f'"namespace":"{ns}"' not in line:
                    continue
                e = json.loads(line)
                ref = e.get("objectRef", {})
                if e.get("stage") != "ResponseComplete" or ref.get("namespace") != ns:
                    continue
                if e.get("userAgent", "").startswith(OTHER_AGENTS) or e["requestReceivedTimestamp"][:26] < stamp:
                    continue
                kind = ref.get("resource", "") + ("/" + ref["subresource"] if ref.get("subresource") else "")
                key = (e["verb"], kind)
                counts[key] = counts.get(key, 0) + 1
        return counts


def healthy(r, image):
    st = r.get("status", {})
    img = r["spec"]["template"]["spec"]["containers"][0]["image"]
    return (st.get("phase") == "Healthy" and img == image and st.get("stableRS")
            and st.get("stableRS") == st.get("currentPodHash")
            and str(r["metadata"].get("generation")) == str(st.get("observedGeneration")))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def report(results, n):
    ctrls = list(results)
    figures = ["healthy_s", "cpu_until_healthy_s", "rss_healthy_mib", "update_s", "cpu_update_s",
               "rss_peak_update_mib", "writes_per_update", "gets_per_update"]
    print(f"\n{n} canary Rollouts per run; median of {len(results[ctrls[0]])} run(s)")
    head = "| figure | " + " | ".join(ctrls) + (" | ratio |" if len(ctrls) == 2 else " |")
    print(head)
    print("|" + "---|" * (len(ctrls) + (2 if len(ctrls) == 2 else 1)))
    for fig in figures + ["requests_per_update"]:
        vals = []
        for c in ctrls:
            if fig == "requests_per_update":
                xs = [r["writes_per_update"] + r["gets_per_update"] for r in results[c]]
            else:
                xs = [r[fig] for r in results[c]]
            vals.append(sorted(xs)[len(xs) // 2])
        ratio = f" | {vals[0] / vals[1]:.2f}x" if len(vals) == 2 and vals[1] else (" | -" if len(vals) == 2 else "")
        print(f"| {fig} | " + " | ".join(f"{v:g}" for v in vals) + ratio + " |")
    for c in ctrls:
        kinds = results[c][-1]["by_kind"]
        print(f"\n{c}, requests per update by verb and resource (last run): "
              + ", ".join(f"{k} {v:.2f}" for k, v in sorted(kinds.items(), key=lambda x: -x[1])))


if __name__ == "__main__":
    main()
