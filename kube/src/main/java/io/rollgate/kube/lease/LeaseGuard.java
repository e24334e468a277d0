package io.rollgate.kube.lease;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A Lease {@link Lock} that remembers, on a monotonic clock, when this process last acquired or
 * renewed the Lease, so that every write can first ask whether the Lease is still certainly ours
 * ({@link #holds()}).
 *
 * <p>Why: the elector learns that the Lease was lost only on its next renew attempt. A process that
 * was frozen (a long GC pause, a stopped VM, SIGSTOP) past the lease duration resumes with
 * reconciles in flight that would write while a standby already leads. The time taken is the start
 * of the successful create/update call, before the API server stored the new {@code renewTime}; a
 * standby only takes over once it has seen that record unchanged for the whole lease duration, so
 * while less than the renew deadline (shorter than the lease duration) has passed since then, no
 * other process can lead. docs/reliability.md describes the fence.
 */
public final class LeaseGuard implements Lock {

  private final Lock delegate;
  private final long renewDeadlineNanos;
  private final LongSupplier nanoTime;
  private volatile long renewedAt;
  private volatile boolean renewed;

  /**
   * Wraps a Lease lock.
   *
   * @param delegate the lock that talks to the API server (fabric8's {@code LeaseLock})
   * @param renewDeadline how long after a renewal the Lease counts as held ({@code
   *     --leader-election-renew-deadline})
   * @param nanoTime the monotonic clock, {@code System::nanoTime} outside tests
   */
  public LeaseGuard(Lock delegate, Duration renewDeadline, LongSupplier nanoTime) {
    this.delegate = delegate;
    this.renewDeadlineNanos = renewDeadline.toNanos();
    this.nanoTime = nanoTime;
  }

  /**
   * Whether this process certainly holds the Lease now: it acquired or renewed it less than the
   * renew deadline ago.
   *
   * @return true while a write may be sent
   */
  public boolean holds() {
    return renewed && nanoTime.getAsLong() - renewedAt < renewDeadlineNanos;
  }

  /**
   * Forgets the last renewal, so that {@link #holds()} is false until the next one (leadership lost
   * or released).
   */
  public void forget() {
    renewed = false;
  }

  @Override
  public LeaderElectionRecord get(KubernetesClient client) {
    return delegate.get(client);
  }

  @Override
  public void create(KubernetesClient client, LeaderElectionRecord record) {
    long start = nanoTime.getAsLong();
    delegate.create(client, record);
    noteRenewal(record, start);
  }

  @Override
  public void update(KubernetesClient client, LeaderElectionRecord record) {
    long start = nanoTime.getAsLong();
    delegate.update(client, record);
    noteRenewal(record, start);
  }

  private void noteRenewal(LeaderElectionRecord record, long start) {
    if (record != null && identity().equals(record.getHolderIdentity())) {
      renewedAt = start;
      renewed = true;
    } else {
      renewed = false;
    }
  }

  @Override
  public String identity() {
    return delegate.identity();
  }

  @Override
  public String describe() {
    return delegate.describe();
  }
}
