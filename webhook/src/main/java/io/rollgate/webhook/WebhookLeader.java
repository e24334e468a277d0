package io.rollgate.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.rollgate.lease.LeaseGuard;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership among webhook replicas through a {@code coordination.k8s.io/v1} Lease. Every replica serves admissions;
 * only the leader renews the certificate before expiry and audits existing Rollouts against RolloutPolicies.
 *
 * <p>Unlike the controller, a webhook that loses the Lease keeps serving and campaigns again. The leader-only writes
 * (certificate renewal, policy audit results) are fenced on {@link #isLeader()} by a {@link io.rollgate.lease.WriteFence}
 * on the client. fabric8's
 * {@link LeaderElector} makes blocking calls, so it runs on its own single thread, never on an event loop.
 */
public final class WebhookLeader implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookLeader.class);

  /**
   * Lease settings.
   *
   * @param namespace the Lease's namespace
   * @param name the Lease's name
   * @param identity this replica's identity ({@code <hostname>_<uuid>})
   * @param leaseDuration how long a Lease is valid without renewal
   * @param renewDeadline how long the leader keeps trying to renew before giving up
   * @param retryPeriod how often candidates retry
   */
  public record Settings(
      String namespace,
      String name,
      String identity,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod) {}

  private final KubernetesClient client;
  private final Settings settings;
  private final Runnable onElected;
  private final ExecutorService thread;
  private final LeaseGuard guard;
  private volatile boolean leading;
  private volatile boolean closing;
  private volatile CompletableFuture<?> running;

  /**
   * Creates the election (not started). With null settings this replica always leads (single replica).
   *
   * @param client the Kubernetes client
   * @param settings the Lease settings, or null to lead without a Lease
   * @param onElected called (on the election thread) each time this replica becomes leader
   */
  public WebhookLeader(KubernetesClient client, Settings settings, Runnable onElected) {
    this.client = client;
    this.settings = settings;
    this.onElected = onElected;
    this.guard =
        settings == null
            ? null
            : new LeaseGuard(
                new LeaseLock(settings.namespace(), settings.name(), settings.identity()),
                settings.renewDeadline(),
                System::nanoTime);
    this.thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "webhook-leader-election");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts campaigning in the background. */
  public void start() {
    if (settings == null) {
      leading = true;
      onElected.run();
      return;
    }
    campaign();
  }

  private void campaign() {
    if (closing) {
      return;
    }
    LeaderElectionConfig config =
        new LeaderElectionConfigBuilder()
            .withName(settings.name())
            .withLock(guard)
            .withLeaseDuration(settings.leaseDuration())
            .withRenewDeadline(settings.renewDeadline())
            .withRetryPeriod(settings.retryPeriod())
            .withReleaseOnCancel(true)
            .withLeaderCallbacks(
                new LeaderCallbacks(
                    () -> {
                      leading = true;
                      LOG.info("webhook leader: {} holds Lease {}/{}", settings.identity(), settings.namespace(),
                          settings.name());
                      onElected.run();
                    },
                    () -> {
                      leading = false;
                      guard.forget();
                      LOG.info("webhook leader: {} lost Lease {}/{}", settings.identity(), settings.namespace(),
                          settings.name());
                    },
                    leader -> LOG.debug("webhook leader is now {}", leader)))
            .build();
    thread.execute(
        () -> {
          running = new LeaderElector(client, config, thread).start();
          running.whenComplete(
              (v, err) -> {
                leading = false;
                guard.forget();
                if (!closing) {
                  // Lost or failed: campaign again after one retry period.
                  CompletableFuture.delayedExecutor(settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS, thread)
                      .execute(this::campaign);
                }
              });
        });
  }

  /**
   * Whether this replica certainly holds the Lease now (always true without a Lease): elected, and its last renewal
   * younger than the renew deadline on a monotonic clock, so that a replica frozen past its Lease does not act as
   * leader when it resumes, before the elector notices the loss (docs/reliability.md).
   *
   * @return true while leading
   */
  public boolean isLeader() {
    return leading && (guard == null || guard.holds());
  }

  /** Stops campaigning and releases the Lease when held. */
  @Override
  public void close() {
    closing = true;
    CompletableFuture<?> r = running;
    if (r != null) {
      r.cancel(true);
    }
    thread.shutdown();
  }
}
