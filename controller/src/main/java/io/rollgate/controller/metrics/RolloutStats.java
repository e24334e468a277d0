package io.rollgate.controller.metrics;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Argo's per-Rollout counters and histogram, keyed by {@code namespace/name}: {@code
 * rollout_reconcile} (histogram, seconds), {@code rollout_reconcile_error} (counter), {@code
 * rollout_events_total} (counter by type and reason) and the notification series ({@code
 * notification_send_success}, {@code notification_send_error}, {@code notification_send}). The same
 * bookkeeping serves Experiments ({@link #experiments()}: {@code experiment_reconcile}, {@code
 * experiment_reconcile_error}, no event counter).
 *
 * <p>Kept here rather than as Micrometer meters for two reasons: a Micrometer {@code
 * DistributionSummary} does not place sub-second values in fractional service-level buckets (every
 * sample lands in {@code le="1.0"}), and the exposition must keep Argo's exact names ({@code
 * rollout_reconcile_error}, without the {@code _total} the Prometheus client would add). Entries
 * are dropped by {@link #retainOnly(Set)} when their Rollout leaves the cache. Thread-safe.
 */
final class RolloutStats {

  private static final double[] BUCKETS = ControllerMetrics.ROLLOUT_RECONCILE_BUCKETS;

  /** Buckets of {@code notification_send}, in seconds, as Argo Rollouts declares them. */
  private static final double[] NOTIFY_BUCKETS = {0.01, 0.15, 0.25, 0.5, 1};

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final String prefix;
  private final String reconcileHelp;
  private final String errorHelp;
  private final boolean withEvents;

  RolloutStats() {
    this(
        "rollout",
        "Rollout reconciliation performance.",
        "Error occurring during the rollout.",
        true);
  }

  private RolloutStats(String prefix, String reconcileHelp, String errorHelp, boolean withEvents) {
    this.prefix = prefix;
    this.reconcileHelp = reconcileHelp;
    this.errorHelp = errorHelp;
    this.withEvents = withEvents;
  }

  /**
   * The per-Experiment variant: {@code experiment_reconcile} and {@code
   * experiment_reconcile_error}.
   */
  static RolloutStats experiments() {
    return new RolloutStats(
        "experiment",
        "Experiments reconciliation performance.",
        "Error occurring during the experiment.",
        false);
  }

  private static final class Entry {
    final String namespace;
    final String name;
    final long[] buckets = new long[BUCKETS.length];
    long count;
    double sum;
    long errors;
    final Map<String, Long> events = new TreeMap<>();
    final Map<String, Long> notified = new TreeMap<>();
    final Map<String, Long> notifyFailed = new TreeMap<>();
    final long[] notifyBuckets = new long[NOTIFY_BUCKETS.length];
    long notifyCount;
    double notifySum;

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

  void notified(String namespace, String name, String type, String reason, int sent, int failed) {
    Entry e = entry(namespace, name);
    synchronized (e) {
      if (sent > 0) {
        e.notified.merge(type + "\u0000" + reason, (long) sent, Long::sum);
      }
      if (failed > 0) {
        e.notifyFailed.merge(type + "\u0000" + reason, (long) failed, Long::sum);
      }
    }
  }

  void notifyDuration(String namespace, String name, double seconds) {
    Entry e = entry(namespace, name);
    synchronized (e) {
      for (int i = 0; i < NOTIFY_BUCKETS.length; i++) {
        if (seconds <= NOTIFY_BUCKETS[i]) {
          e.notifyBuckets[i]++;
        }
      }
      e.notifyCount++;
      e.notifySum += seconds;
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
    out.append("# HELP ")
        .append(reconcile)
        .append(' ')
        .append(reconcileHelp)
        .append('\n')
        .append("# TYPE ")
        .append(reconcile)
        .append(" histogram\n");
    StringBuilder errors =
        new StringBuilder("# HELP ")
            .append(reconcile)
            .append("_error ")
            .append(errorHelp)
            .append('\n')
            .append("# TYPE ")
            .append(reconcile)
            .append("_error counter\n");
    StringBuilder events =
        new StringBuilder("# HELP rollout_events_total Count of rollout events.\n")
            .append("# TYPE rollout_events_total counter\n");
    for (Entry e : entries.values()) {
      synchronized (e) {
        String labels =
            "namespace=\""
                + RolloutSeries.escape(e.namespace)
                + "\",name=\""
                + RolloutSeries.escape(e.name)
                + "\"";
        if (e.count > 0) {
          for (int i = 0; i < BUCKETS.length; i++) {
            out.append(reconcile)
                .append("_bucket{")
                .append(labels)
                .append(",le=\"")
                .append(format(BUCKETS[i]))
                .append("\"} ")
                .append(e.buckets[i])
                .append('\n');
          }
          out.append(reconcile)
              .append("_bucket{")
              .append(labels)
              .append(",le=\"+Inf\"} ")
              .append(e.count)
              .append('\n');
          out.append(reconcile)
              .append("_sum{")
              .append(labels)
              .append("} ")
              .append(e.sum)
              .append('\n');
          out.append(reconcile)
              .append("_count{")
              .append(labels)
              .append("} ")
              .append(e.count)
              .append('\n');
          errors
              .append(reconcile)
              .append("_error{")
              .append(labels)
              .append("} ")
              .append(e.errors)
              .append('\n');
        }
        byReason(events, "rollout_events_total", labels, e.events);
      }
    }
    out.append(errors);
    if (withEvents) {
      out.append(events);
      writeNotifications(out);
    }
  }

  /**
   * {@code notification_send_success} and {@code notification_send_error} (counters by type and
   * reason) and {@code notification_send} (histogram, seconds), named and labelled as Argo Rollouts
   * exports them.
   */
  private void writeNotifications(StringBuilder out) {
    StringBuilder ok =
        new StringBuilder("# HELP notification_send_success Notification send success.\n")
            .append("# TYPE notification_send_success counter\n");
    StringBuilder failed =
        new StringBuilder("# HELP notification_send_error Error sending the notification\n")
            .append("# TYPE notification_send_error counter\n");
    StringBuilder send =
        new StringBuilder("# HELP notification_send Notification send performance.\n")
            .append("# TYPE notification_send histogram\n");
    for (Entry e : entries.values()) {
      synchronized (e) {
        String labels =
            "namespace=\""
                + RolloutSeries.escape(e.namespace)
                + "\",name=\""
                + RolloutSeries.escape(e.name)
                + "\"";
        byReason(ok, "notification_send_success", labels, e.notified);
        byReason(failed, "notification_send_error", labels, e.notifyFailed);
        if (e.notifyCount > 0) {
          for (int i = 0; i < NOTIFY_BUCKETS.length; i++) {
            send.append("notification_send_bucket{")
                .append(labels)
                .append(",le=\"")
                .append(format(NOTIFY_BUCKETS[i]))
                .append("\"} ")
                .append(e.notifyBuckets[i])
                .append('\n');
          }
          send.append("notification_send_bucket{")
              .append(labels)
              .append(",le=\"+Inf\"} ")
              .append(e.notifyCount)
              .append('\n');
          send.append("notification_send_sum{")
              .append(labels)
              .append("} ")
              .append(e.notifySum)
              .append('\n');
          send.append("notification_send_count{")
              .append(labels)
              .append("} ")
              .append(e.notifyCount)
              .append('\n');
        }
      }
    }
    out.append(ok).append(failed).append(send);
  }

  private static void byReason(
      StringBuilder out, String metric, String labels, Map<String, Long> counts) {
    for (Map.Entry<String, Long> ev : counts.entrySet()) {
      int sep = ev.getKey().indexOf('\u0000');
      out.append(metric)
          .append('{')
          .append(labels)
          .append(",type=\"")
          .append(RolloutSeries.escape(ev.getKey().substring(0, sep)))
          .append("\",reason=\"")
          .append(RolloutSeries.escape(ev.getKey().substring(sep + 1)))
          .append("\"} ")
          .append(ev.getValue())
          .append('\n');
    }
  }

  private static String format(double bound) {
    return bound == Math.rint(bound) ? String.valueOf((long) bound) : String.valueOf(bound);
  }
}
