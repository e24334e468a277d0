package io.rollgate.controller.metrics;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Argo's per-Rollout counters and histogram, keyed by {@code namespace/name}: {@code rollout_reconcile} (histogram,
 * seconds), {@code rollout_reconcile_error} (counter) and {@code rollout_events_total} (counter by type and reason).
 * The same bookkeeping serves Experiments ({@link #experiments()}: {@code experiment_reconcile},
 * {@code experiment_reconcile_error}, no event counter).
 *
 * <p>Kept here rather than as Micrometer meters for two reasons: a Micrometer {@code DistributionSummary} does not place
 * sub-second values in fractional service-level buckets (every sample lands in {@code le="1.0"}), and the exposition
 * must keep Argo's exact names ({@code rollout_reconcile_error}, without the {@code _total} the Prometheus client
 * would add). Entries are dropped by {@link #retainOnly(Set)} when their Rollout leaves the cache. Thread-safe.
 */
final class RolloutStats {

  private static final double[] BUCKETS = ControllerMetrics.ROLLOUT_RECONCILE_BUCKETS;

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final String prefix;
  private final String reconcileHelp;
  private final String errorHelp;
  private final boolean withEvents;

  RolloutStats() {
    this("rollout", "Rollout reconciliation performance.", "Error occurring during the rollout.", true);
  }

  private RolloutStats(String prefix, String reconcileHelp, String errorHelp, boolean withEvents) {
    this.prefix = prefix;
    this.reconcileHelp = reconcileHelp;
    this.errorHelp = errorHelp;
    this.withEvents = withEvents;
  }

  /** The per-Experiment variant: {@code experiment_reconcile} and {@code experiment_reconcile_error}. */
  static RolloutStats experiments() {
    return new RolloutStats(
        "experiment", "Experiments reconciliation performance.", "Error occurring during the experiment.", false);
  }

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
    String reconcile = prefix + "_reconcile";
    out.append("# HELP ").append(reconcile).append(' ').append(reconcileHelp).append('\n')
        .append("# TYPE ").append(reconcile).append(" histogram\n");
    StringBuilder errors =
        new StringBuilder("# HELP ").append(reconcile).append("_error ").append(errorHelp).append('\n')
            .append("# TYPE ").append(reconcile).append("_error counter\n");
    StringBuilder events =
        new StringBuilder("# HELP rollout_events_total Count of rollout events.\n")
            .append("# TYPE rollout_events_total counter\n");
    for (Entry e : entries.values()) {
      synchronized (e) {
        String labels = "namespace=\"" + RolloutSeries.escape(e.namespace) + "\",name=\"" + RolloutSeries.escape(e.name) + "\"";
        if (e.count > 0) {
          for (int i = 0; i < BUCKETS.length; i++) {
            out.append(reconcile).append("_bucket{").append(labels).append(",le=\"").append(format(BUCKETS[i]))
                .append("\"} ").append(e.buckets[i]).append('\n');
          }
          out.append(reconcile).append("_bucket{").append(labels).append(",le=\"+Inf\"} ").append(e.count).append('\n');
          out.append(reconcile).append("_sum{").append(labels).append("} ").append(e.sum).append('\n');
          out.append(reconcile).append("_count{").append(labels).append("} ").append(e.count).append('\n');
          errors.append(reconcile).append("_error{").append(labels).append("} ").append(e.errors).append('\n');
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
    out.append(errors);
    if (withEvents) {
      out.append(events);
    }
  }

  private static String format(double bound) {
    return bound == Math.rint(bound) ? String.valueOf((long) bound) : String.valueOf(bound);
  }
}
