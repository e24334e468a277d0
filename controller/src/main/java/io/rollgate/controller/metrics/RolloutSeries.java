package io.rollgate.controller.metrics;

import io.rollgate.api.ConditionReason;
import io.rollgate.api.ConditionType;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import io.rollgate.api.RolloutStrategy;
import io.rollgate.api.RolloutTrafficRouting;
import java.util.Collection;
import java.util.List;

/**
 * Writes Argo Rollouts' per-Rollout gauges (docs/compatibility.md §14) in the Prometheus text
 * format, computed from the informer cache at scrape time: {@code rollout_info}, {@code
 * rollout_info_replicas_available}, {@code _unavailable}, {@code _desired}, {@code _updated}, and
 * the deprecated {@code rollout_phase}.
 *
 * <p>Because the series are derived from the cache on every scrape, a deleted Rollout's series
 * disappear with it; no meter is registered per Rollout. They are written by hand rather than
 * through Micrometer because the Prometheus client Micrometer uses strips the {@code _info} suffix
 * from gauge names, which would break the upstream dashboard.
 */
public final class RolloutSeries {

  /** Values of the {@code phase} label of {@code rollout_info} and {@code rollout_phase}. */
  public static final List<String> PHASES =
      List.of("Progressing", "Paused", "Completed", "Error", "Timeout", "Abort", "InvalidSpec");

  private RolloutSeries() {}

  /**
   * Derives the {@code phase} label of {@code rollout_info} from the conditions, as Argo's {@code
   * calculatePhase} does (this is not {@code status.phase}): {@code Progressing} by default; the
   * {@code Progressing} condition's reason {@code NewReplicaSetAvailable} gives {@code Completed},
   * {@code RolloutPaused} gives {@code Paused}, {@code ReplicaSetCreateError} gives {@code Error},
   * {@code ProgressDeadlineExceeded} gives {@code Timeout}, {@code RolloutAborted} gives {@code
   * Abort}; any {@code InvalidSpec} condition gives {@code InvalidSpec}.
   *
   * @param rollout the Rollout
   * @return one of {@link #PHASES}
   */
  public static String phase(Rollout rollout) {
    RolloutStatus status = rollout.getStatus();
    List<RolloutCondition> conditions = status == null ? null : status.getConditions();
    if (conditions == null) {
      return "Progressing";
    }
    String phase = "Progressing";
    for (RolloutCondition c : conditions) {
      if (ConditionType.PROGRESSING.equals(c.getType()) && c.getReason() != null) {
        switch (c.getReason()) {
          case ConditionReason.NEW_REPLICA_SET_AVAILABLE -> phase = "Completed";
          case ConditionReason.ROLLOUT_PAUSED -> phase = "Paused";
          case ConditionReason.REPLICA_SET_CREATE_ERROR -> phase = "Error";
          case ConditionReason.PROGRESS_DEADLINE_EXCEEDED -> phase = "Timeout";
          case ConditionReason.ROLLOUT_ABORTED -> phase = "Abort";
          default -> {
            // other reasons keep Progressing
          }
        }
      }
    }
    for (RolloutCondition c : conditions) {
      if (ConditionType.INVALID_SPEC.equals(c.getType())) {
        return "InvalidSpec";
      }
    }
    return phase;
  }

  /**
   * The {@code strategy} label: {@code blueGreen}, {@code canary}, or {@code none}.
   *
   * @param rollout the Rollout
   * @return the label value
   */
  public static String strategy(Rollout rollout) {
    RolloutStrategy s = rollout.getSpec() == null ? null : rollout.getSpec().getStrategy();
    if (s != null && s.getBlueGreen() != null) {
      return "blueGreen";
    }
    if (s != null && s.getCanary() != null) {
      return "canary";
    }
    return "none";
  }

  /**
   * The {@code traffic_router} label: the last configured of {@code ALB}, {@code Ambassador},
   * {@code Istio}, {@code Nginx}, {@code SMI}, {@code AppMesh} (Argo's order), or empty.
   *
   * @param rollout the Rollout
   * @return the label value, empty without {@code spec.strategy.canary.trafficRouting}
   */
  public static String trafficRouter(Rollout rollout) {
    RolloutStrategy s = rollout.getSpec() == null ? null : rollout.getSpec().getStrategy();
    RolloutTrafficRouting tr =
        s == null || s.getCanary() == null ? null : s.getCanary().getTrafficRouting();
    if (tr == null) {
      return "";
    }
    String router = "";
    if (tr.getAlb() != null) {
      router = "ALB";
    }
    if (tr.getAmbassador() != null) {
      router = "Ambassador";
    }
    if (tr.getIstio() != null) {
      router = "Istio";
    }
    if (tr.getNginx() != null) {
      router = "Nginx";
    }
    if (tr.getSmi() != null) {
      router = "SMI";
    }
    if (tr.getAppMesh() != null) {
      router = "AppMesh";
    }
    return router;
  }

  /**
   * Appends the per-Rollout metric families for the given Rollouts, in the Prometheus text format
   * 0.0.4.
   *
   * @param out where to append
   * @param rollouts the Rollouts in the informer cache
   */
  public static void write(StringBuilder out, Collection<Rollout> rollouts) {
    family(out, "rollout_info", "Information about rollout.");
    for (Rollout r : rollouts) {
      sample(
          out,
          "rollout_info",
          1,
          "namespace",
          ns(r),
          "name",
          name(r),
          "strategy",
          strategy(r),
          "traffic_router",
          trafficRouter(r),
          "phase",
          phase(r));
    }
    replicas(
        out,
        rollouts,
        "rollout_info_replicas_available",
        "The number of available replicas per rollout.");
    replicas(
        out,
        rollouts,
        "rollout_info_replicas_unavailable",
        "The number of unavailable replicas per rollout.");
    replicas(
        out,
        rollouts,
        "rollout_info_replicas_desired",
        "The number of desired replicas per rollout.");
    replicas(
        out,
        rollouts,
        "rollout_info_replicas_updated",
        "The number of updated replicas per rollout.");
    family(
        out,
        "rollout_phase",
        "Information on the state of the rollout (DEPRECATED - use rollout_info).");
    for (Rollout r : rollouts) {
      String phase = phase(r);
      for (String p : PHASES) {
        sample(
            out,
            "rollout_phase",
            p.equals(phase) ? 1 : 0,
            "namespace",
            ns(r),
            "name",
            name(r),
            "strategy",
            strategy(r),
            "phase",
            p);
      }
    }
  }

  /**
   * Appends a one-sample gauge family with constant value 1.
   *
   * @param out where to append
   * @param metric the metric name
   * @param help the help text
   * @param labels label names and values, alternating
   */
  public static void constant(StringBuilder out, String metric, String help, String... labels) {
    family(out, metric, help);
    sample(out, metric, 1, labels);
  }

  private static void replicas(
      StringBuilder out, Collection<Rollout> rollouts, String metric, String help) {
    family(out, metric, help);
    for (Rollout r : rollouts) {
      RolloutStatus s = r.getStatus() == null ? new RolloutStatus() : r.getStatus();
      long value =
          switch (metric) {
            case "rollout_info_replicas_available" -> n(s.getAvailableReplicas());
            case "rollout_info_replicas_unavailable" ->
                n(s.getReplicas()) - n(s.getAvailableReplicas());
            case "rollout_info_replicas_desired" ->
                r.getSpec() == null || r.getSpec().getReplicas() == null
                    ? 1
                    : r.getSpec().getReplicas();
            default -> n(s.getUpdatedReplicas());
          };
      sample(out, metric, value, "namespace", ns(r), "name", name(r));
    }
  }

  private static long n(Integer v) {
    return v == null ? 0 : v;
  }

  private static String ns(Rollout r) {
    return r.getMetadata().getNamespace();
  }

  private static String name(Rollout r) {
    return r.getMetadata().getName();
  }

  static void family(StringBuilder out, String metric, String help) {
    out.append("# HELP ").append(metric).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(metric).append(" gauge\n");
  }

  static void sample(StringBuilder out, String metric, long value, String... labels) {
    out.append(metric).append('{');
    for (int i = 0; i + 1 < labels.length; i += 2) {
      if (i > 0) {
        out.append(',');
      }
      out.append(labels[i]).append("=\"").append(escape(labels[i + 1])).append('"');
    }
    out.append("} ").append(value).append('\n');
  }

  static String escape(String v) {
    if (v == null) {
      return "";
    }
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
