package io.rollgate.kube.lease;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease: the one elector of both programs, each
 * with its own settings (docs/reliability.md). The controller campaigns as Argo Rollouts'
 * controller does (lock {@code argo-rollouts-controller-lock[-<instanceId>]} in the controller
 * namespace, identity {@code <hostname>_<uuid>}) and stops at the first loss ({@link #of}); the
 * webhook keeps serving after a loss and campaigns again ({@link #rejoining}).
 *
 * <p>fabric8's {@link LeaderElector} makes blocking API calls from its loop; it gets its own single
 * thread, never an event loop, and the results are handed to the caller's Vert.x context. Its Lease
 * calls deliberately bypass the client-side rate limiter, so that renewals are never starved by
 * other traffic. The Lease lock is a {@link LeaseGuard}, so {@link #holdsLease()} turns false by
 * itself when the last renewal is older than the renew deadline.
 *
 * <p>{@link #elected()} completes when this process first becomes the leader, and {@link
 * #onElected} listeners run each time it does; {@link #lost()} fails when a non-rejoining election
 * stops being the leader without having asked to ({@link #release()} was not called), after which
 * the process must stop writing and exit. A disabled election ({@link #disabled(Context)}) is
 * elected at once and never lost.
 */
public final class LeaderElection {

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  /**
   * Settings of the election (Argo's flags).
   *
   * @param namespace the Lease namespace ({@code --leader-election-namespace}, default {@code
   *     $POD_NAMESPACE} or {@code default})
   * @param lockName the Lease name
   * @param identity this process's identity, {@code <hostname>_<uuid>}
   * @param leaseDuration {@code --leader-election-lease-duration} (15 s)
   * @param renewDeadline {@code --leader-election-renew-deadline} (10 s)
   * @param retryPeriod {@code --leader-election-retry-period} (2 s)
   */
  public record Settings(
      String namespace,
      String lockName,
      String identity,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod) {

    /**
     * Argo's lock name for an instance id.
     *
     * @param instanceId the {@code --instance-id}, possibly empty
     * @return {@code argo-rollouts-controller-lock}, suffixed {@code -<instanceId>} when set
     */
    public static String lockName(String instanceId) {
      return "argo-rollouts-controller-lock"
          + (instanceId == null || instanceId.isEmpty() ? "" : "-" + instanceId);
    }
  }

  private final Context context;
  private final Settings settings;
  private final boolean rejoin;
  private final java.util.List<Runnable> electedListeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private final KubernetesClient client;
  private final Promise<Void> elected = Promise.promise();
  private final Promise<Void> lost = Promise.promise();
  private final ExecutorService thread;
  private volatile boolean leading;
  private volatile boolean releasing;
  private volatile String currentLeader = "";
  private volatile CompletableFuture<?> running;
  private final LeaseGuard guard;

  private LeaderElection(
      Context context,
      KubernetesClient client,
      Settings settings,
      boolean rejoin,
      String threadName) {
    this.context = context;
    this.client = client;
    this.settings = settings;
    this.rejoin = rejoin;
    this.guard =
        settings == null
            ? null
            : new LeaseGuard(
                new LeaseLock(settings.namespace(), settings.lockName(), settings.identity()),
                settings.renewDeadline(),
                System::nanoTime);
    this.thread =
        settings == null
            ? null
            : Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, threadName);
                  t.setDaemon(true);
                  return t;
                });
  }

  /**
   * Creates an election that ends at the first loss (the controller's); nothing happens until
   * {@link #start()}. Its thread is named {@code leader-election}.
   *
   * @param context the context on which {@link #elected()}, {@link #lost()} and the listeners
   *     complete
   * @param client the fabric8 client
   * @param settings the election settings
   * @return the election
   */
  public static LeaderElection of(Context context, KubernetesClient client, Settings settings) {
    return new LeaderElection(context, client, settings, false, "leader-election");
  }

  /**
   * Creates an election that campaigns again, one retry period after each loss, and whose {@link
   * #lost()} never fails (the webhook's: every replica keeps serving, only the leader's own work
   * moves); nothing happens until {@link #start()}.
   *
   * @param context the context on which {@link #elected()} and the listeners complete
   * @param client the fabric8 client
   * @param settings the election settings
   * @param threadName the name of the elector's thread
   * @return the election
   */
  public static LeaderElection rejoining(
      Context context, KubernetesClient client, Settings settings, String threadName) {
    return new LeaderElection(context, client, settings, true, threadName);
  }

  /**
   * An election that is won at once ({@code --leader-elect=false}).
   *
   * @param context the context on which {@link #elected()} completes
   * @return the election
   */
  public static LeaderElection disabled(Context context) {
    return new LeaderElection(context, null, null, false, null);
  }

  /**
   * Adds a listener run each time this process becomes the leader, on the election's context; when
   * the election is disabled, once, by {@link #start()} on its caller's thread. Add listeners
   * before starting.
   *
   * @param listener what to run; must not block
   * @return this election
   */
  public LeaderElection onElected(Runnable listener) {
    electedListeners.add(listener);
    return this;
  }

  /**
   * Starts campaigning, without blocking the caller.
   *
   * @return this election
   */
  public LeaderElection start() {
    if (settings == null) {
      leading = true;
      elected.tryComplete();
      electedListeners.forEach(Runnable::run);
      return this;
    }
    LOG.info(
        "leader election: campaigning lock={}/{} identity={} leaseDuration={}s renewDeadline={}s retryPeriod={}s",
        settings.namespace(),
        settings.lockName(),
        settings.identity(),
        settings.leaseDuration().toSeconds(),
        settings.renewDeadline().toSeconds(),
        settings.retryPeriod().toSeconds());
    campaign();
    return this;
  }

  private void campaign() {
    if (releasing) {
      return;
    }
    LeaderElectionConfig config =
        new LeaderElectionConfigBuilder()
            .withName(settings.lockName())
            .withLock(guard)
            .withLeaseDuration(settings.leaseDuration())
            .withRenewDeadline(settings.renewDeadline())
            .withRetryPeriod(settings.retryPeriod())
            .withReleaseOnCancel(true)
            .withLeaderCallbacks(
                new LeaderCallbacks(this::onStart, this::onStop, this::onNewLeader))
            .build();
    thread.execute(
        () -> {
          // The elector is built directly (rather than through client.leaderElector()) to give it
          // this dedicated thread instead of the client's shared executor.
          CompletableFuture<?> campaign = new LeaderElector(client, config, thread).start();
          running = campaign;
          campaign.whenComplete(
              (v, err) -> {
                if (releasing) {
                  return;
                }
                if (rejoin) {
                  leading = false;
                  guard.forget();
                  // Lost or failed: campaign again after one retry period.
                  CompletableFuture.delayedExecutor(
                          settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS, thread)
                      .execute(this::campaign);
                } else if (err != null
                    && !(err instanceof java.util.concurrent.CancellationException)) {
                  fail("leader election stopped: " + err.getMessage());
                }
              });
        });
  }

  /**
   * Completes (on the caller's context) when this process holds the Lease.
   *
   * @return a Future that completes once; never fails
   */
  public Future<Void> elected() {
    return elected.future();
  }

  /**
   * Fails when leadership is lost: the Lease could not be renewed within the renew deadline or
   * another holder took it. A rejoining election never fails it.
   *
   * @return a Future that only ever fails
   */
  public Future<Void> lost() {
    return lost.future();
  }

  /**
   * Whether this process currently holds the Lease (always true when disabled).
   *
   * @return true while leading
   */
  public boolean isLeader() {
    return leading;
  }

  /**
   * Whether a write may be sent now: the Lease was acquired or renewed less than the renew deadline
   * ago, on a monotonic clock (always true when the election is disabled). Unlike {@link
   * #isLeader()}, this turns false by itself when the process was frozen past its Lease, before the
   * elector has noticed.
   *
   * @return true while this process certainly holds the Lease
   */
  public boolean holdsLease() {
    if (settings == null) {
      return leading;
    }
    return leading && guard.holds();
  }

  /**
   * The holder last observed on the Lease, for logs and the readiness body.
   *
   * @return the identity, or empty when unknown
   */
  public String currentLeader() {
    return currentLeader;
  }

  /**
   * Stops campaigning and, when leading, releases the Lease so that a standby takes over at once
   * rather than after the lease duration ({@code releaseOnCancel}). Call only once nothing writes
   * any more.
   *
   * @return a Future completing once released (or immediately when not campaigning); never fails
   */
  public Future<Void> release() {
    if (settings == null) {
      return Future.succeededFuture();
    }
    releasing = true;
    Promise<Void> done = Promise.promise();
    thread.execute(
        () -> {
          try {
            if (running != null) {
              // Cancelling runs fabric8's stopLeading() on this thread: it releases the Lease when
              // it holds it.
              running.cancel(true);
            }
          } catch (RuntimeException e) {
            LOG.warn("leader election: release failed: {}", e.toString());
          } finally {
            leading = false;
            thread.shutdown();
            context.runOnContext(v -> done.complete());
          }
        });
    return done.future();
  }

  private void onStart() {
    leading = true;
    LOG.info(
        "leader election: became leader identity={} (holds Lease {}/{})",
        settings.identity(),
        settings.namespace(),
        settings.lockName());
    context.runOnContext(
        v -> {
          elected.tryComplete();
          electedListeners.forEach(Runnable::run);
        });
  }

  private void onStop() {
    boolean was = leading;
    leading = false;
    if (releasing) {
      LOG.info("leader election: released lock={}/{}", settings.namespace(), settings.lockName());
    } else if (rejoin) {
      guard.forget();
      LOG.info(
          "leader election: {} lost lock={}/{}; campaigning again",
          settings.identity(),
          settings.namespace(),
          settings.lockName());
    } else if (was) {
      fail("lost leadership of " + settings.namespace() + "/" + settings.lockName());
    }
  }

  private void onNewLeader(String identity) {
    currentLeader = identity == null ? "" : identity;
    if (!currentLeader.equals(settings.identity())) {
      LOG.info("leader election: current leader is {}", currentLeader);
    }
  }

  private void fail(String message) {
    leading = false;
    if (guard != null) {
      guard.forget();
    }
    LOG.error("leader election: {}", message);
    context.runOnContext(v -> lost.tryFail(new IllegalStateException(message)));
  }
}
