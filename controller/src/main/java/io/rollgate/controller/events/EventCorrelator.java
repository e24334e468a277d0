package io.rollgate.controller.events;

import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Decides, for each Event the controller records, whether it becomes a new Event or a count
 * increase of an existing one, with the aggregation rules of Kubernetes' own event recorder
 * (client-go's event correlator), which Argo Rollouts' controller records its Events through.
 * docs/compatibility.md §13.2 describes them:
 *
 * <ul>
 *   <li><b>Aggregation</b>: Events of one object with the same type and reason but different
 *       messages are "similar". From the {@value #AGGREGATE_MAX_EVENTS}th distinct message within
 *       {@value #AGGREGATE_INTERVAL_SECONDS} s on, they are recorded as one Event whose message
 *       starts with {@value #COMBINED_PREFIX} and whose count grows.
 *   <li><b>Deduplication</b>: an Event identical to one recorded within {@value
 *       #DEDUP_WINDOW_SECONDS} s (same object, type, reason and message) increases the count of
 *       that Event instead of creating another.
 * </ul>
 *
 * <p>client-go's third rule, its per-object spam filter (25 Events, then one per 5 minutes, the
 * rest never written), is not applied: it drops whole Events, so reasons that tools and users read
 * (a Rollout's {@code RolloutCompleted} after a few quick updates) would be missing. Every recorded
 * reason reaches the API server, as a new Event or as a higher count.
 *
 * <p>State is bounded: each table keeps the {@value #MAX_TRACKED} most recently used keys.
 * Thread-safe.
 */
public final class EventCorrelator {

  /**
   * Distinct messages of one (object, type, reason) after which Events are combined (client-go's
   * default).
   */
  public static final int AGGREGATE_MAX_EVENTS = 10;

  /** Window of the aggregation, in seconds (client-go's default). */
  public static final long AGGREGATE_INTERVAL_SECONDS = 600;

  /** Message prefix of a combined Event (client-go's wording, which tools display as is). */
  public static final String COMBINED_PREFIX = "(combined from similar events): ";

  /** Window within which an identical Event increases the count of the earlier one, in seconds. */
  public static final long DEDUP_WINDOW_SECONDS = 600;

  /** Entries kept per table (client-go's cache size). */
  public static final int MAX_TRACKED = 4096;

  /** What to do with one Event. */
  public enum Action {
    /** Create a new Event. */
    CREATE,
    /**
     * Patch the count, last timestamp and message of the existing Event {@link Decision#name()}.
     */
    PATCH
  }

  /**
   * The decision for one Event.
   *
   * @param action what to do
   * @param key the key to pass to {@link #created} once a created Event exists
   * @param message the message to write (prefixed with {@link #COMBINED_PREFIX} when combined)
   * @param count the Event's count to write
   * @param namespace for {@link Action#PATCH}, the namespace of the Event to patch, else null
   * @param name for {@link Action#PATCH}, the name of the Event to patch, else null
   */
  public record Decision(
      Action action, String key, String message, int count, String namespace, String name) {}

  private static final class Seen {
    String namespace;
    String name;
    int count;
    final Instant first;

    Seen(Instant first) {
      this.first = first;
    }
  }

  private static final class Similar {
    final Set<String> messages = new LinkedHashSet<>();
    Instant last;
  }

  private final Map<String, Seen> seen = lru();
  private final Map<String, Similar> similar = lru();

  private static <V> Map<String, V> lru() {
    return new LinkedHashMap<>(256, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > MAX_TRACKED;
      }
    };
  }

  /**
   * Correlates one Event with those recorded before.
   *
   * @param object the involved object's identity (its uid)
   * @param type {@code Normal} or {@code Warning}
   * @param reason the reason
   * @param message the message
   * @param now the time of the Event
   * @return the decision
   */
  public synchronized Decision correlate(
      String object, String type, String reason, String message, Instant now) {
    String aggregateKey = object + '\u0000' + type + '\u0000' + reason;
    String key = aggregateKey + '\u0000' + message;
    String text = message;
    Similar group = similar.get(aggregateKey);
    if (group == null || group.last.plusSeconds(AGGREGATE_INTERVAL_SECONDS).isBefore(now)) {
      group = new Similar();
      similar.put(aggregateKey, group);
    }
    group.last = now;
    group.messages.add(message);
    if (group.messages.size() >= AGGREGATE_MAX_EVENTS) {
      Iterator<String> oldest = group.messages.iterator();
      oldest.next();
      oldest.remove();
      key = aggregateKey;
      text = COMBINED_PREFIX + message;
    }
    Seen s = seen.get(key);
    if (s == null || s.first.plusSeconds(DEDUP_WINDOW_SECONDS).isBefore(now)) {
      s = new Seen(now);
      seen.put(key, s);
    }
    s.count++;
    if (s.name != null) {
      return new Decision(Action.PATCH, key, text, s.count, s.namespace, s.name);
    }
    return new Decision(Action.CREATE, key, text, s.count, null, null);
  }

  /**
   * Remembers the Event created for a decision, so that later repeats patch it.
   *
   * @param key the decision's key
   * @param namespace the created Event's namespace
   * @param name the created Event's name
   */
  public synchronized void created(String key, String namespace, String name) {
    Seen s = seen.get(key);
    if (s != null) {
      s.namespace = namespace;
      s.name = name;
    }
  }

  /**
   * Forgets the Event of a key whose patch failed (for example because the API server had deleted
   * the Event after its time to live), so that the next repeat creates a new one.
   *
   * @param key the decision's key
   */
  public synchronized void forget(String key) {
    Seen s = seen.get(key);
    if (s != null) {
      s.name = null;
      s.namespace = null;
    }
  }
}
