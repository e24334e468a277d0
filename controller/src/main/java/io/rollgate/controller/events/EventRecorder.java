package io.rollgate.controller.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.metrics.ControllerMetrics;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records core/v1 Events on the objects the controller manages, with Argo Rollouts' reasons and
 * messages (they are a contract: notification triggers are keyed on the reason).
 *
 * <p>Which Events are combined or counted follows Kubernetes' own event recorder ({@link
 * EventCorrelator}): repeats bump the {@code count} of the existing Event, and many similar Events
 * of one object are combined into one. At most {@value #MAX_PENDING} Event writes wait at any time;
 * beyond that an Event is dropped, as client-go's broadcaster drops Events when its queue is full,
 * and counted ({@code rollgate_events_dropped_total{cause="queue"}}). Recording never fails a
 * reconcile: errors are logged and swallowed.
 *
 * <p>The Events of one involved object reach the API server in the order they were recorded: each
 * write waits for the previous one of the same object (as Kubernetes' own event broadcaster writes
 * them one after another), so readers that watch Events (upstream's end-to-end suite, notification
 * tools) see Argo's sequence of reasons.
 */
public final class EventRecorder {

  /** Event writes that may wait at once (client-go's broadcaster queue length). */
  public static final int MAX_PENDING = 1000;

  /** The {@code source.component} of every Event, as Argo Rollouts writes it. */
  public static final String COMPONENT = "rollouts-controller";

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubeApi api;
  private final Clock clock;
  private final java.util.concurrent.atomic.AtomicLong sequence =
      new java.util.concurrent.atomic.AtomicLong();
  private final ControllerMetrics metrics;
  private final EventCorrelator correlator = new EventCorrelator();
  private final java.util.concurrent.atomic.AtomicInteger pending =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Told of every recorded Event (notifications, docs/notifications.md). */
  public interface Listener {
    /**
     * Called once per recorded Event, before its write; must return at once.
     *
     * @param obj the involved object
     * @param type {@code Normal} or {@code Warning}
     * @param reason the reason
     */
    void recorded(HasMetadata obj, String type, String reason);
  }

  private volatile Listener listener = (obj, type, reason) -> {};

  /**
   * Sets who is told of every recorded Event (Argo Rollouts sends its notifications from its event
   * recorder).
   *
   * @param listener the listener
   */
  public void listen(Listener listener) {
    this.listener = Objects.requireNonNull(listener);
  }

  /**
   * The last write queued per involved object (uid); removed once it completed and nothing was
   * queued after it.
   */
  private final Map<String, Future<Void>> tails = new java.util.HashMap<>();

  /**
   * Creates a recorder.
   *
   * @param api the API facade
   * @param clock the clock for timestamps
   */
  public EventRecorder(KubeApi api, Clock clock) {
    this(api, clock, null);
  }

  /**
   * Creates a recorder that also counts every Rollout event ({@code
   * rollout_events_total{namespace,name,type,reason}}, incremented for each recorded occurrence,
   * aggregated or not, as Argo does).
   *
   * @param api the API facade
   * @param clock the clock for timestamps
   * @param metrics the meters, or null
   */
  public EventRecorder(KubeApi api, Clock clock, ControllerMetrics metrics) {
    this.api = api;
    this.clock = clock;
    this.metrics = metrics;
  }

  /**
   * Records Events the caller orders its next write after (a status that shows what they report),
   * and says what to wait for. While the Event budget is idle, the Events' own writes, so a reader
   * who sees the status also finds its Events. While Event writes wait for budget that other calls
   * use (docs/compatibility.md §13.2), nothing: the Events stay queued in order and the caller goes
   * on, as Argo's controller queues its Events and never waits for them.
   *
   * @param records records the Events ({@link #normal}, {@link #warning}) and returns their writes
   * @return the writes to wait for, or a completed Future
   */
  public Future<Void> beforeStatus(java.util.function.Supplier<Future<Void>> records) {
    boolean prompt = api == null || api.eventBudgetIdle();
    Future<Void> writes = records.get();
    return prompt ? writes : Future.succeededFuture();
  }

  /**
   * Records a Normal event.
   *
   * @param obj the involved object
   * @param reason the reason, for example {@code RolloutStepCompleted}
   * @param message the message
   * @return a Future that always succeeds
   */
  public Future<Void> normal(HasMetadata obj, String reason, String message) {
    return record(obj, "Normal", reason, message);
  }

  /**
   * Records a Warning event.
   *
   * @param obj the involved object
   * @param reason the reason, for example {@code RolloutAborted}
   * @param message the message
   * @return a Future that always succeeds
   */
  public Future<Void> warning(HasMetadata obj, String reason, String message) {
    return record(obj, "Warning", reason, message);
  }

  private Future<Void> record(HasMetadata obj, String type, String reason, String message) {
    String ns = obj.getMetadata().getNamespace();
    if (metrics != null) {
      metrics.event(obj.getKind(), ns, obj.getMetadata().getName(), type, reason);
    }
    try {
      listener.recorded(obj, type, reason);
    } catch (RuntimeException e) {
      LOG.warn(
          "kind={} ns={} name={} reason={} listener failed: {}",
          obj.getKind(),
          ns,
          obj.getMetadata().getName(),
          reason,
          e.toString());
    }
    String uid = String.valueOf(obj.getMetadata().getUid());
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    EventCorrelator.Decision decision = correlator.correlate(uid, type, reason, message, now);
    if (pending.incrementAndGet() > MAX_PENDING) {
      pending.decrementAndGet();
      dropped(obj, reason, "queue");
      return Future.succeededFuture();
    }
    Future<Void> next;
    synchronized (this) {
      Future<Void> previous = tails.get(uid);
      next =
          previous == null
              ? write(obj, type, reason, decision, now)
              : previous.transform(ignored -> write(obj, type, reason, decision, now));
      tails.put(uid, next);
    }
    Future<Void> queued = next;
    queued.onComplete(
        ignored -> {
          pending.decrementAndGet();
          synchronized (this) {
            tails.remove(uid, queued);
          }
        });
    return queued;
  }

  private void dropped(HasMetadata obj, String reason, String cause) {
    if (metrics != null) {
      metrics.eventDropped(cause);
    }
    LOG.debug(
        "kind={} ns={} name={} event not written reason={} cause={}",
        obj.getKind(),
        obj.getMetadata().getNamespace(),
        obj.getMetadata().getName(),
        reason,
        cause);
  }

  private Future<Void> write(
      HasMetadata obj, String type, String reason, EventCorrelator.Decision decision, Instant now) {
    String ns = obj.getMetadata().getNamespace();
    String ts = DateTimeFormatter.ISO_INSTANT.format(now);
    Future<?> write;
    if (decision.action() == EventCorrelator.Action.PATCH) {
      ObjectNode patch = JSON.createObjectNode();
      patch.put("count", decision.count());
      patch.put("lastTimestamp", ts);
      patch.put("message", decision.message());
      write =
          api.patchEvent(decision.namespace(), decision.name(), patch.toString())
              .recover(
                  err -> {
                    correlator.forget(decision.key());
                    return create(obj, decision, type, reason, ts);
                  });
    } else {
      write = create(obj, decision, type, reason, ts);
    }
    return write
        .<Void>mapEmpty()
        .recover(
            err -> {
              LOG.warn(
                  "kind={} ns={} name={} event not recorded reason={} cause={}",
                  obj.getKind(),
                  ns,
                  obj.getMetadata().getName(),
                  reason,
                  err.getMessage());
              return Future.succeededFuture();
            });
  }

  private Future<Event> create(
      HasMetadata obj, EventCorrelator.Decision decision, String type, String reason, String ts) {
    String ns = obj.getMetadata().getNamespace();
    // <object>.<hex millis><hex sequence>: unique within this process, as Kubernetes' own recorder
    // names events.
    String name =
        obj.getMetadata().getName()
            + "."
            + Long.toHexString(clock.millis())
            + Long.toHexString(0x100000L | (sequence.incrementAndGet() & 0xfffffL));
    Event event =
        new EventBuilder()
            .withNewMetadata()
            .withNamespace(ns)
            .withName(name)
            .endMetadata()
            .withInvolvedObject(
                new ObjectReferenceBuilder()
                    .withApiVersion(obj.getApiVersion())
                    .withKind(obj.getKind())
                    .withNamespace(ns)
                    .withName(obj.getMetadata().getName())
                    .withUid(obj.getMetadata().getUid())
                    .withResourceVersion(obj.getMetadata().getResourceVersion())
                    .build())
            .withType(type)
            .withReason(reason)
            .withMessage(decision.message())
            .withCount(decision.count())
            .withFirstTimestamp(ts)
            .withLastTimestamp(ts)
            .withNewSource()
            .withComponent(COMPONENT)
            .endSource()
            .withReportingComponent(COMPONENT)
            .build();
    return api.createEvent(event)
        .onSuccess(e -> correlator.created(decision.key(), ns, name))
        .map(Objects.requireNonNull(event));
  }
}
