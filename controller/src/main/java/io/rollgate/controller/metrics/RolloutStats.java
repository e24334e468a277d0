package io.rollgate.controller.metrics;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Argo's per-Rollout counters and histogram, keyed by {@code namespace/name}: {@code rollout_reconcile} (histogram,
 * seconds), {@code rollout_reconcile_error} (counter) and {@code rollout_events_total} (counter by type and reason).
 *
 * <p>Kept here rather than as Micrometer meters for two reasons: a Micrometer {@code DistributionSummary} does not place
 * sub-second values in fractional service-level buckets (every sample lands in {@code le="1.0"}), and the exposition
 * must keep Argo's exact names ({@code rollout_reconcile_error}, without the {@code _total} the Prometheus client
 * would add). Entries are dropped by {@link #retainOnly(Set)} when their Rollout leaves the cache. Thread-safe.
 */
final class RolloutStats {

  private static final double[] BUCKETS = ControllerMetrics.ROLLOUT_RECONCILE_BUCKETS;

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();

  private static final class Entry {
    final String namespace;
    final String name;
    final long[] buckets = new long[BUCKETS.length];
    long count;
    double sum;
    long errors;
    final Map<String, Long> events = new TreeMap<>();

    Entry(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
    }
  }

  private Entry entry(String namespace, String name) {
    return entries.computeIfAbsent(namespace + "/" + name, k -> new Entry(namespace, name));
  }

  void reconciled(String namespace, String name, double seconds, boolean failed) {
    Entry e = entry(namespace, name);
    synchronized (e) {
      for (int i = 0; i < BUCKETS.length; i++) {
        if (seconds <= BUCKETS[i]) {
          e.buckets[i]++;
        }
      }
      e.count++;
      e.sum += seconds;
      if (failed) {
        e.errors++;
      }
    }
  }

  void event(String namespace, String name, String type, String reason) {
    Entry e = entry(namespace, name);
    synchronized (e) {
      e.events.merge(type + "\u0000" + reason, 1L, Long::sum);
    }
  }

  int retainOnly(Set<String> live) {
    int before = entries.size();
    entries.keySet().retainAll(live);
    return before - entries.size();
  }

  boolean tracks(String namespace, String name) {
    return entries.containsKey(namespace + "/" + name);
  }

  void write(StringBuilder out) {
    out.append("# HELP rollout_reconcile Rollout reconciliation performance.\n# TYPE rollout_reconcile histogram\n");
    StringBuilder errors =
        new StringBuilder("# HELP rollout_reconcile_error Error occurring during the rollout.\n")
            .append("# TYPE rollout_reconcile_error counter\n");
    StringBuilder events =
        new StringBuilder("# HELP rollout_events_total Count of rollout events.\n")
            .append("# TYPE rollout_events_total counter\n");
    for (Entry e : entries.values()) {
      synchronized (e) {
        String labels = "namespace=\"" + RolloutSeries.escape(e.namespace) + "\",name=\"" + RolloutSeries.escape(e.name) + "\"";
        if (e.count > 0) {
          for (int i = 0; i < BUCKETS.length; i++) {
            out.append("rollout_reconcile_bucket{").append(labels).append(",le=\"").append(format(BUCKETS[i]))
                .append("\"} ").append(e.buckets[i]).append('\n');
          }
          out.append("rollout_reconcile_bucket{").append(labels).append(",le=\"+Inf\"} ").append(e.count).append('\n');
          out.append("rollout_reconcile_sum{").append(labels).append("} ").append(e.sum).append('\n');
          out.append("rollout_reconcile_count{").append(labels).append("} ").append(e.count).append('\n');
          errors.append("rollout_reconcile_error{").append(labels).append("} ").append(e.errors).append('\n');
        }
        for (Map.Entry<String, Long> ev : e.events.entrySet()) {
          int sep = ev.getKey().indexOf('\u0000');
          events.append("rollout_events_total{").append(labels)
              .append(",type=\"").append(RolloutSeries.escape(ev.getKey().substring(0, sep)))
              .append("\",reason=\"").append(RolloutSeries.escape(ev.getKey().substring(sep + 1)))
              .append("\"} ").append(ev.getValue()).append('\n');
        }
      }
    }
    out.append(errors).append(events);
  }

  private static String format(double bound) {
    return bound == Math.rint(bound) ? String.valueOf((long) bound) : String.valueOf(bound);
  }
}
