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
import shutil
import subprocess
import sys
import time
import urllib.request
from datetime import datetime, timezone

READ_KINDS = ("rollouts", "rollouts/status", "replicasets", "services", "analysisruns", "experiments", "ingresses")
OTHER_AGENTS = ("kube-controller-manager", "kube-scheduler", "kwok", "kubectl", "kube-apiserver")


def main():
    ap = argparse.ArgumentParser()
    for flag in ("kubeconfig", "kubectl", "audit-log", "rollgate-jar", "argo-bin", "rollgate-crds", "argo-crds"):
        ap.add_argument("--" + flag, required=True)
    ap.add_argument("--rollgate-java", default="java", help="the java launcher (the image's JDK)")
    ap.add_argument("--rollgate-java-opts", default="", help="JVM flags (the chart's controller.javaOpts)")
    ap.add_argument("--rollgate-memory-limit", default="", help="container memory limit, e.g. 768Mi (-XX:MaxRAM)")
    ap.add_argument("--rollgate-args", default="", help="extra controller flags for Rollgate")
    ap.add_argument("--argo-args", default="", help="extra controller flags for Argo")
    ap.add_argument("--rollouts", default="300,1000", help="comma-separated list of N")
    ap.add_argument("--runs", type=int, default=2, help="runs per controller and N, interleaved A, B, A, B")
    ap.add_argument("--controllers", default="rollgate,argo")
    ap.add_argument("--idle", type=int, default=60, help="seconds idle after all Healthy, before the update")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds to wait for all Healthy")
    a = ap.parse_args()
    bench = Bench(a)
    for n in [int(x) for x in a.rollouts.split(",")]:
        results = {c: [] for c in a.controllers.split(",")}
        for run in range(1, a.runs + 1):
            for ctrl in results:
                r = bench.run(ctrl, run, n)
                results[ctrl].append(r)
                print(f"N={n} run {run} {ctrl}: " + json.dumps({k: v for k, v in r.items() if not isinstance(v, dict)}),
                      flush=True)
        report(results, n)


def diff(after, before):
    return {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0) > 0}


def quantiles(buckets, qs):
    """Quantiles (ms) from cumulative histogram buckets, interpolated linearly inside a bucket as Prometheus'
    histogram_quantile does; None without samples."""
    bounds = sorted(buckets)
    total = buckets.get(float("inf"), 0) if bounds else 0
    if not total:
        return [None for _ in qs]
    out = []
    for q in qs:
        rank, prev_b, prev_c = q * total, 0.0, 0.0
        for b in bounds:
            c = buckets[b]
            if c >= rank:
                if b == float("inf"):
                    out.append(round(prev_b * 1000, 1))
                else:
                    frac = (rank - prev_c) / (c - prev_c) if c > prev_c else 1.0
                    out.append(round((prev_b + (b - prev_b) * frac) * 1000, 1))
                break
            prev_b, prev_c = b, c
    return out


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


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

    def run(self, ctrl, run, n):
        self.n = n
        ns = f"bench-{ctrl}-{n}-{run}-{int(time.time())}"
        crds = self.a.rollgate_crds if ctrl == "rollgate" else self.a.argo_crds
        how = "-k" if os.path.exists(os.path.join(crds, "kustomization.yaml")) else "-f"
        self.k("apply", "--server-side", "--force-conflicts", how, crds)
        self.k("wait", "--for", "condition=established", "--timeout=60s", "crd", "--all")
        self.k("create", "namespace", ns)
        self.k("apply", "-f", "-", inp=self.manifests(ns, "registry.example/app:v1"))
        log = open(f"/tmp/controller-bench-{ns}.log", "w")
        if ctrl == "rollgate":
            cmd = [self.a.rollgate_java, *self.a.rollgate_java_opts.split(), *max_ram(self.a.rollgate_memory_limit),
                   "-jar", self.a.rollgate_jar, "--kubeconfig", self.a.kubeconfig, "--namespace", ns,
                   "--leader-elect=false", "--metricsport", "18090", "--healthzPort", "18091",
                   *self.a.rollgate_args.split()]
        else:
            cmd = [self.a.argo_bin, "--kubeconfig", self.a.kubeconfig, "--namespaced", "--namespace", ns,
                   "--leader-elect=false", "--metricsport", "18090", "--healthzPort", "18091", "--loglevel", "warn",
                   *self.a.argo_args.split()]
        r = {"load_start": load_average()}
        started = time.time()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        try:
            self.await_healthy(ns, "registry.example/app:v1", proc)
            r["healthy_s"] = time.time() - started
            r["cpu_until_healthy_s"] = cpu_seconds(proc.pid)
            r["rss_healthy_mib"], r["hwm_healthy_mib"] = memory_mib(proc.pid)
            self.diagnose(ctrl, ns, proc.pid, "healthy")
            self.check(ns, "registry.example/app:v1")
            cpu0 = cpu_seconds(proc.pid)
            time.sleep(self.a.idle)
            r["cpu_idle_s"] = cpu_seconds(proc.pid) - cpu0
            r["rss_idle_mib"], _ = memory_mib(proc.pid)
            before = (self.apiserver_counts(), self.controller_counts(), self.reconcile_buckets())
            since = datetime.now(timezone.utc)
            cpu0 = cpu_seconds(proc.pid)
            t0 = time.time()
            self.k("apply", "-f", "-", inp=self.manifests(ns, "registry.example/app:v2"))
            r["load_update"] = load_average()
            peak = self.await_healthy(ns, "registry.example/app:v2", proc)
            r["update_s"] = time.time() - t0
            r["cpu_update_s"] = cpu_seconds(proc.pid) - cpu0
            r["rss_peak_update_mib"] = peak
            # Writes still queued when all are Healthy (Events, above all) belong to the update too: the window
            # closes when the controller's own request count has not moved for 5 s.
            r["settle_after_healthy_s"] = self.await_quiet()
            r["cpu_update_settled_s"] = cpu_seconds(proc.pid) - cpu0
            r["rss_after_update_mib"], r["hwm_after_update_mib"] = memory_mib(proc.pid)
            after = (self.apiserver_counts(), self.controller_counts(), self.reconcile_buckets())
            self.diagnose(ctrl, ns, proc.pid, "updated")
            self.check(ns, "registry.example/app:v2")
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        r["load_end"] = load_average()
        writes = self.writes(ns, since)
        events = self.event_reasons(ns, since)
        self.k("delete", "namespace", ns, "--wait=false")
        gets = diff(after[0], before[0])
        own = diff(after[1], before[1])
        by_kind = {f"{verb} {kind}": c / n for (verb, kind), c in writes.items()}
        by_kind.update({f"get {kind}": c / n for kind, c in gets.items()})
        r["writes_per_update"] = sum(writes.values()) / n
        r["gets_per_update"] = sum(gets.values()) / n
        r["requests_per_update"] = r["writes_per_update"] + r["gets_per_update"]
        # The controller's own count of the same window, against what the API server received.
        r["own_count_per_update"] = sum(own.values()) / n
        r["reconcile_p50_ms"], r["reconcile_p99_ms"] = quantiles(diff(after[2], before[2]), (0.5, 0.99))
        r = {k: (round(v, 2) if isinstance(v, float) else v) for k, v in r.items()}
        r["by_kind"] = by_kind
        r["own_by_kind"] = {k: v / n for k, v in own.items()}
        r["event_reasons"] = {k: v / n for k, v in events.items()}
        return r

    def await_quiet(self, quiet=5.0, limit=300.0):
        """Seconds until the controller's own request count stays unchanged for `quiet` seconds (at most `limit`)."""
        t0 = time.time()
        last, since = None, time.time()
        while time.time() - t0 < limit:
            total = sum(self.controller_counts().values())
            if total != last:
                last, since = total, time.time()
            elif time.time() - since >= quiet:
                return round(since - t0, 2)
            time.sleep(0.5)
        return round(limit, 2)

    def diagnose(self, ctrl, ns, pid, phase):
        """With -XX:NativeMemoryTracking in Rollgate's flags, saves the JVM's memory breakdown and heap next to the
        controller log (/tmp/controller-bench-<namespace>.<phase>.txt)."""
        if ctrl != "rollgate":
            return
        threads = thread_cpu(pid)
        print(f"  {ctrl} {phase}: CPU s by thread group: "
              + ", ".join(f"{k} {v:.1f}" for k, v in sorted(threads.items(), key=lambda x: -x[1])[:12]), flush=True)
        jcmd = os.path.join(os.path.dirname(os.path.realpath(shutil.which(self.a.rollgate_java))), "jcmd")
        classes = subprocess.run([jcmd, str(pid), "VM.classloader_stats"], capture_output=True, text=True,
                                 check=False).stdout
        metaspace = subprocess.run([jcmd, str(pid), "VM.metaspace", "basic"], capture_output=True, text=True,
                                   check=False).stdout
        loaded = re.search(r"^Total = \d+\s+(\d+)", classes, re.M)
        committed = re.search(r"Both:\s+[\d.]+ [KMG]B reserved,\s+([\d.]+ [KMG]B)", metaspace)
        print(f"  {ctrl} {phase}: {len(os.listdir(f'/proc/{pid}/task'))} threads, "
              f"{loaded.group(1) if loaded else '?'} classes loaded, metaspace "
              f"{committed.group(1) if committed else '?'} committed", flush=True)
        if "NativeMemoryTracking" not in self.a.rollgate_java_opts:
            return
        with open(f"/tmp/controller-bench-{ns}.{phase}.txt", "w") as out:
            for what in (["VM.native_memory", "summary"], ["GC.heap_info"], ["GC.class_histogram"]):
                subprocess.run([jcmd, str(pid), *what], stdout=out, stderr=subprocess.STDOUT, check=False)

    def check(self, ns, image):
        """Fails the run unless every Rollout has exactly one ReplicaSet with pods (2, on the image), at most
        revisionHistoryLimit + 1 ReplicaSets, and the namespace has 2 running pods per Rollout."""
        rss = json.loads(self.k("get", "replicasets", "-n", ns, "-o", "json"))["items"]
        per = {}
        for rs in rss:
            owner = next((o["name"] for o in rs["metadata"].get("ownerReferences", []) if o.get("kind") == "Rollout"), None)
            per.setdefault(owner, []).append(rs)
        bad = []
        for i in range(self.n):
            mine = per.get(f"r{i}", [])
            live = [x for x in mine if x["spec"].get("replicas", 0) > 0]
            if len(mine) > 3 or len(live) != 1 or live[0]["spec"]["replicas"] != 2 \
                    or live[0]["spec"]["template"]["spec"]["containers"][0]["image"] != image:
                bad.append(f"r{i}")
        pods = json.loads(self.k("get", "pods", "-n", ns, "-o", "json"))["items"]
        running = sum(1 for p in pods if p["status"].get("phase") == "Running" and not p["metadata"].get("deletionTimestamp"))
        if bad:
            sys.exit(f"wrong ReplicaSets for {len(bad)} Rollouts in {ns} (first: {bad[:5]})")
        deadline = time.time() + 120
        while running != 2 * self.n and time.time() < deadline:
            time.sleep(2)
            pods = json.loads(self.k("get", "pods", "-n", ns, "-o", "json"))["items"]
            running = sum(1 for p in pods if p["status"].get("phase") == "Running" and not p["metadata"].get("deletionTimestamp"))
        if running != 2 * self.n:
            sys.exit(f"{running} running pods in {ns}, expected {2 * self.n}")

    def metrics(self):
        try:
            with urllib.request.urlopen("http://127.0.0.1:18090/metrics", timeout=10) as resp:
                return resp.read().decode()
        except OSError:
            return ""

    def controller_counts(self):
        """controller_clientset_k8s_request_total by (verb, kind), as the controller counts its own requests."""
        out = {}
        for line in self.metrics().splitlines():
            if line.startswith("controller_clientset_k8s_request_total{"):
                verb = re.search(r'verb="([^"]*)"', line).group(1)
                kind = re.search(r'kind="([^"]*)"', line).group(1)
                if re.fullmatch(r"r\d+", kind):
                    # Argo's metric labels some Rollout writes with the object's name instead of its kind.
                    kind = "rollouts (labelled by name)"
                key = f"{verb.lower()} {kind.lower()}"
                out[key] = out.get(key, 0) + float(line.rsplit(" ", 1)[1])
        return out

    def reconcile_buckets(self):
        """rollout_reconcile histogram buckets summed over all Rollouts: {upper bound s: cumulative count}."""
        out = {}
        for line in self.metrics().splitlines():
            if line.startswith("rollout_reconcile_bucket{"):
                le = re.search(r'le="([^"]*)"', line).group(1)
                b = float("inf") if le == "+Inf" else float(le)
                out[b] = out.get(b, 0) + float(line.rsplit(" ", 1)[1])
        return out

    def event_reasons(self, ns, since):
        """Events the controller created in the window, by reason (from the API server's Events)."""
        items = json.loads(self.k("get", "events", "-n", ns, "-o", "json"))["items"]
        stamp = since.strftime("%Y-%m-%dT%H:%M:%S")
        out = {}
        for e in items:
            if (e.get("source") or {}).get("component") not in ("rollouts-controller", "argo-rollouts"):
                if (e.get("reportingComponent") or "") not in ("rollouts-controller", "argo-rollouts"):
                    continue
            if (e.get("firstTimestamp") or e["metadata"]["creationTimestamp"]) < stamp:
                continue
            out[e["reason"]] = out.get(e["reason"], 0) + 1
        return out

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

    def apiserver_counts(self):
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
        # The API server rotates its audit log at 100 MB: read the rotated files written since the window opened too.
        logs = [self.a.audit_log]
        folder = os.path.dirname(self.a.audit_log)
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if name.startswith("audit-") and name.endswith(".log") and os.path.getmtime(path) >= since.timestamp():
                logs.append(path)
        for log in logs:
            counts = self.count_writes(log, ns, stamp, counts)
        return counts

    @staticmethod
    def count_writes(log, ns, stamp, counts):
        with open(log, encoding="utf-8") as f:
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


def thread_cpu(pid):
    """CPU seconds per thread group of a process (thread names with their numbers removed)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                raw = f.read()
        except FileNotFoundError:
            continue
        name = re.sub(r"[-#]?\d+", "", raw[raw.index("(") + 1:raw.rindex(")")]).strip() or "?"
        fields = raw.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def memory_mib(pid):
    """(VmRSS, VmHWM) of the process, MiB."""
    rss = hwm = 0.0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) / 1024
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return round(rss, 1), round(hwm, 1)


def rss_mib(pid):
    return memory_mib(pid)[0]


FIGURES = ["healthy_s", "cpu_until_healthy_s", "rss_healthy_mib", "hwm_healthy_mib", "cpu_idle_s", "rss_idle_mib",
           "update_s", "cpu_update_s", "settle_after_healthy_s", "cpu_update_settled_s", "rss_peak_update_mib", "rss_after_update_mib", "hwm_after_update_mib",
           "writes_per_update", "gets_per_update", "requests_per_update", "own_count_per_update",
           "reconcile_p50_ms", "reconcile_p99_ms", "load_start", "load_update", "load_end"]


def report(results, n):
    ctrls = list(results)
    print(f"\n{n} canary Rollouts per run; median of {len(results[ctrls[0]])} run(s) per controller")
    print("| figure | " + " | ".join(ctrls) + (" | ratio |" if len(ctrls) == 2 else " |"))
    print("|" + "---|" * (len(ctrls) + (2 if len(ctrls) == 2 else 1)))
    for fig in FIGURES:
        vals = []
        for c in ctrls:
            xs = sorted(r[fig] for r in results[c] if r.get(fig) is not None)
            vals.append(xs[len(xs) // 2] if xs else None)
        ratio = ""
        if len(vals) == 2:
            ratio = f" | {vals[0] / vals[1]:.2f}x" if vals[0] is not None and vals[1] else " | -"
        print(f"| {fig} | " + " | ".join("-" if v is None else f"{v:g}" for v in vals) + ratio + " |")
    for c in ctrls:
        last = results[c][-1]
        for title, key in (("requests per update by verb and resource, as the API server received them", "by_kind"),
                           ("the controller's own request count per update", "own_by_kind"),
                           ("Events created per update, by reason", "event_reasons")):
            items = sorted(last[key].items(), key=lambda x: -x[1])
            print(f"\n{c}, {title} (last run): " + ", ".join(f"{k} {v:.2f}" for k, v in items))


if __name__ == "__main__":
    main()
