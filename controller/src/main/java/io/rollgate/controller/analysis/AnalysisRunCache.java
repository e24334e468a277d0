package io.rollgate.controller.analysis;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisRun;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The AnalysisRun informer cache, overlaid with the objects returned by the controller's own writes
 * until the informer has caught up (compared by resourceVersion), so that a pass never starts from
 * older data than the controller itself wrote.
 */
final class AnalysisRunCache {

  private static final long WRITE_OVERLAY_SECONDS = 60;

  private final SharedIndexInformer<AnalysisRun> informer;
  private final Clock clock;
  private final Map<String, Written> written = new ConcurrentHashMap<>();

  private record Written(AnalysisRun run, Instant at) {}

  AnalysisRunCache(SharedIndexInformer<AnalysisRun> informer, Clock clock) {
    this.informer = informer;
    this.clock = clock;
  }

  /**
   * Returns the freshest known copy of a run, or null when it does not exist (or is not visible
   * yet).
   */
  AnalysisRun get(String namespace, String name) {
    String key = namespace + "/" + name;
    AnalysisRun cached = informer.getStore().getByKey(key);
    Written w = written.get(key);
    if (w == null) {
      return cached;
    }
    boolean expired = w.at().plusSeconds(WRITE_OVERLAY_SECONDS).isBefore(clock.instant());
    if (cached == null) {
      if (expired) {
        written.remove(key, w);
      }
      return null;
    }
    if (expired
        || !Objects.equals(w.run().getMetadata().getUid(), cached.getMetadata().getUid())
        || newerOrEqual(
            cached.getMetadata().getResourceVersion(),
            w.run().getMetadata().getResourceVersion())) {
      written.remove(key, w);
      return cached;
    }
    return w.run();
  }

  /** Remembers the object returned by one of our writes. */
  void wrote(AnalysisRun run) {
    if (run != null && run.getMetadata() != null) {
      written.put(
          run.getMetadata().getNamespace() + "/" + run.getMetadata().getName(),
          new Written(run, clock.instant()));
    }
  }

  /** Forgets a deleted run. */
  void forget(String namespace, String name) {
    written.remove(namespace + "/" + name);
  }

  private static boolean newerOrEqual(String cachedRv, String writtenRv) {
    try {
      return Long.parseLong(cachedRv) >= Long.parseLong(writtenRv);
    } catch (NumberFormatException | NullPointerException e) {
      return true;
    }
  }
}
