package io.rollgate.controller.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Annotations;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.controller.metrics.ControllerMetrics;
import io.rollgate.controller.plugin.PluginHost;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends Argo Rollouts notifications for the Events the controller records (docs/notifications.md).
 * As in Argo Rollouts, an Event's reason names its trigger ({@code RolloutPaused} fires {@code
 * on-rollout-paused}); the destinations are the object's {@code
 * notifications.argoproj.io/subscribe.<trigger>.<service>} annotations and the ConfigMap's {@code
 * subscriptions}. Rendering and sending are done by Argo's notification engine, hosted by the
 * plugin bridge in its {@code notifications} mode; this class decides whether an Event can notify
 * anyone, hands it over with the configurations and AnalysisRuns that apply, and counts and logs
 * the outcome.
 *
 * <p>Never blocks and never fails a reconcile: the notifications of one object are sent one Event
 * after another (so they arrive in the order the Events were recorded), those of different objects
 * concurrently; the engine retries a failed send with a doubling backoff. Only the leader notifies,
 * so a standby or a deposed leader sends nothing.
 */
public final class Notifications {

  /** The bridge mode that hosts the notification engine. */
  public static final String MODE = "notifications";

  /** The annotation prefix of a subscription, as Argo Rollouts' notification engine reads it. */
  public static final String SUBSCRIBE_PREFIX = "notifications.argoproj.io/subscribe";

  /** Attempts per notification before it counts as failed. */
  static final int SEND_ATTEMPTS = 3;

  /** Bound of one attempt. */
  static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

  /** Wait before the second attempt, doubling after. */
  static final Duration SEND_BACKOFF = Duration.ofSeconds(1);

  /**
   * Bound of handing one Event to the engine: every attempt of every destination, run concurrently.
   */
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(120);

  private static final Logger LOG = LoggerFactory.getLogger(Notifications.class);
  private static final int MAX_REMEMBERED_PROBLEMS = 256;

  private final PluginHost host;
  private final NotificationConfigs configs;
  private final Function<String, List<AnalysisRun>> analysisRunsIn;
  private final ControllerMetrics metrics;
  private final BooleanSupplier leader;
  private final Map<String, Future<Void>> tails = new HashMap<>();
  private final Map<String, Boolean> reported =
      new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > MAX_REMEMBERED_PROBLEMS;
        }
      };

  /**
   * Creates the notifier.
   *
   * @param host the plugin host, which supervises the bridge
   * @param configs the notification configurations
   * @param analysisRunsIn the cached AnalysisRuns of a namespace
   * @param metrics the meters, or null
   * @param leader whether this process certainly holds the leader Lease
   */
  public Notifications(
      PluginHost host,
      NotificationConfigs configs,
      Function<String, List<AnalysisRun>> analysisRunsIn,
      ControllerMetrics metrics,
      BooleanSupplier leader) {
    this.host = host;
    this.configs = configs;
    this.analysisRunsIn = analysisRunsIn;
    this.metrics = metrics;
    this.leader = leader;
  }

  /**
   * Notifies the subscribers of an Event, if any. Returns at once; the object is read now, as it
   * was when the Event was recorded.
   *
   * @param obj the involved object (a Rollout, an AnalysisRun or an Experiment)
   * @param type {@code Normal} or {@code Warning}
   * @param reason the Event reason (docs/compatibility.md §13.1)
   */
  public void recorded(HasMetadata obj, String type, String reason) {
    if (reason == null || reason.isEmpty() || !leader.getAsBoolean()) {
      return;
    }
    String ns = obj.getMetadata().getNamespace();
    List<NotificationConfigs.Config> applying = configs.configsFor(ns);
    if (applying.isEmpty() || !mayHaveSubscribers(obj, applying)) {
      return;
    }
    ObjectNode body = request(obj, type, reason, applying);
    String uid = String.valueOf(obj.getMetadata().getUid());
    String name = obj.getMetadata().getName();
    Future<Void> next;
    synchronized (this) {
      Future<Void> previous = tails.get(uid);
      next =
          previous == null
              ? send(ns, name, type, reason, body)
              : previous.transform(x -> send(ns, name, type, reason, body));
      tails.put(uid, next);
    }
    Future<Void> queued = next;
    queued.onComplete(
        x -> {
          synchronized (this) {
            tails.remove(uid, queued);
          }
        });
  }

  /**
   * Whether anyone can be subscribed: a subscription annotation on the object, or global {@code
   * subscriptions} in a configuration. Without either, no trigger has a destination and the Event
   * is not handed over.
   */
  static boolean mayHaveSubscribers(HasMetadata obj, List<NotificationConfigs.Config> applying) {
    Map<String, String> annotations = obj.getMetadata().getAnnotations();
    if (annotations != null
        && annotations.keySet().stream().anyMatch(k -> k.startsWith(SUBSCRIBE_PREFIX))) {
      return true;
    }
    return applying.stream()
        .anyMatch(
            c ->
                c.configMap().getData() != null
                    && c.configMap().getData().containsKey("subscriptions"));
  }

  private ObjectNode request(
      HasMetadata obj, String type, String reason, List<NotificationConfigs.Config> applying) {
    ObjectNode body = ModelJson.mapper().createObjectNode();
    body.putObject("event").put("type", type).put("reason", reason);
    body.set("object", ModelJson.mapper().valueToTree(obj));
    List<AnalysisRun> runs = obj instanceof Rollout r ? currentRevisionRuns(r) : List.of();
    if (runs.isEmpty()) {
      body.putNull("analysisRuns");
    } else {
      body.set("analysisRuns", ModelJson.mapper().valueToTree(runs));
    }
    ArrayNode list = body.putArray("configs");
    for (NotificationConfigs.Config c : applying) {
      ObjectNode item = list.addObject();
      item.set("configMap", ModelJson.mapper().valueToTree(c.configMap()));
      if (c.secret() != null) {
        item.set("secret", ModelJson.mapper().valueToTree(c.secret()));
      }
    }
    return body;
  }

  /**
   * The AnalysisRuns templates see as {@code analysisRuns}, chosen as Argo Rollouts chooses them:
   * those of the Rollout's namespace labelled with its {@code status.currentPodHash} whose {@code
   * rollout.argoproj.io/revision} equals the Rollout's, newest first.
   *
   * @param rollout the Rollout
   * @return the runs, possibly empty
   */
  List<AnalysisRun> currentRevisionRuns(Rollout rollout) {
    String hash = rollout.getStatus() == null ? null : rollout.getStatus().getCurrentPodHash();
    String revision = annotation(rollout, Annotations.REVISION);
    List<AnalysisRun> out = new ArrayList<>();
    for (AnalysisRun run : analysisRunsIn.apply(rollout.getMetadata().getNamespace())) {
      Map<String, String> labels = run.getMetadata().getLabels();
      String runHash = labels == null ? null : labels.get(Labels.POD_TEMPLATE_HASH);
      if (Objects.equals(runHash, hash == null ? "" : hash)
          && Objects.equals(annotation(run, Annotations.REVISION), revision)) {
        out.add(run);
      }
    }
    out.sort(
        Comparator.comparing(
                (AnalysisRun r) -> String.valueOf(r.getMetadata().getCreationTimestamp()))
            .reversed());
    return out;
  }

  private static String annotation(HasMetadata obj, String key) {
    Map<String, String> a = obj.getMetadata().getAnnotations();
    String v = a == null ? null : a.get(key);
    return v == null ? "" : v;
  }

  private Future<Void> send(String ns, String name, String type, String reason, ObjectNode body) {
    long start = System.nanoTime();
    List<String> args =
        List.of(
            "--send-attempts", String.valueOf(SEND_ATTEMPTS),
            "--send-backoff", SEND_BACKOFF.toMillis() + "ms",
            "--send-timeout", SEND_TIMEOUT.toMillis() + "ms");
    return host.callBridge(MODE, args, "notify", body, CALL_TIMEOUT)
        .transform(
            ar -> {
              long nanos = System.nanoTime() - start;
              if (ar.failed()) {
                LOG.warn(
                    "notification not sent ns={} name={} reason={}: {}",
                    ns,
                    name,
                    reason,
                    ar.cause().getMessage());
                count(ns, name, type, reason, 0, 1, nanos);
                return Future.succeededFuture();
              }
              JsonNode answer = ar.result();
              String error = answer.path("error").asText("");
              if (!error.isEmpty()) {
                LOG.warn(
                    "notification not sent ns={} name={} reason={}: {}", ns, name, reason, error);
                count(ns, name, type, reason, 0, 1, nanos);
                return Future.succeededFuture();
              }
              for (JsonNode p : answer.path("problems")) {
                reportOnce(p.asText());
              }
              String trigger = answer.path("trigger").asText();
              for (JsonNode s : answer.path("sent")) {
                LOG.info(
                    "notification sent ns={} name={} trigger={} destination={} templates={} attempts={}",
                    ns,
                    name,
                    trigger,
                    destination(s),
                    s.path("templates"),
                    s.path("attempts").asInt());
              }
              for (JsonNode f : answer.path("failed")) {
                LOG.warn(
                    "notification failed ns={} name={} trigger={} destination={} attempts={}: {}",
                    ns,
                    name,
                    trigger,
                    destination(f),
                    f.path("attempts").asInt(),
                    f.path("error").asText());
              }
              count(
                  ns,
                  name,
                  type,
                  reason,
                  answer.path("sent").size(),
                  answer.path("failed").size(),
                  nanos);
              return Future.succeededFuture();
            });
  }

  private static String destination(JsonNode outcome) {
    String recipient = outcome.path("recipient").asText("");
    return outcome.path("service").asText() + (recipient.isEmpty() ? "" : ":" + recipient);
  }

  private void count(
      String ns, String name, String type, String reason, int sent, int failed, long nanos) {
    if (metrics != null) {
      metrics.notified(ns, name, type, reason, sent, failed, nanos);
    }
  }

  /**
   * Logs a configuration problem the first time it is seen (they come back with every answer while
   * they last).
   */
  private void reportOnce(String problem) {
    boolean first;
    synchronized (reported) {
      first = reported.put(problem, Boolean.TRUE) == null;
    }
    if (first) {
      LOG.error("notification configuration: {}", problem);
    }
  }
}
