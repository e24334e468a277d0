package io.rollgate.kube.lease;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LeaseGuardTest {

  static final long SECOND = 1_000_000_000L;

  final AtomicLong now = new AtomicLong(100 * SECOND);
  boolean failUpdates;

  final Lock lease =
      new Lock() {
        @Override
        public LeaderElectionRecord get(KubernetesClient client) {
          return null;
        }

        @Override
        public void create(KubernetesClient client, LeaderElectionRecord record) {
          now.addAndGet(SECOND / 2); // the call itself takes time
        }

        @Override
        public void update(KubernetesClient client, LeaderElectionRecord record) {
          now.addAndGet(SECOND / 2);
          if (failUpdates) {
            throw new KubernetesClientException("conflict");
          }
        }

        @Override
        public String identity() {
          return "me";
        }

        @Override
        public String describe() {
          return "ns/lock";
        }
      };

  final LeaseGuard guard = new LeaseGuard(lease, Duration.ofSeconds(10), now::get);

  static LeaderElectionRecord held(String holder) {
    ZonedDateTime t = ZonedDateTime.now();
    return new LeaderElectionRecord(holder, Duration.ofSeconds(15), t, t, 0);
  }

  @Test
  void holdsNothingBeforeTheFirstAcquisition() {
    assertFalse(guard.holds());
  }

  @Test
  void holdsUntilTheRenewDeadlineCountedFromTheStartOfTheSuccessfulCall() {
    long start = now.get();
    guard.create(null, held("me"));
    now.set(start + 10 * SECOND - 1);
    assertTrue(guard.holds());
    now.set(start + 10 * SECOND);
    assertFalse(guard.holds());
  }

  @Test
  void eachRenewalExtendsTheHold() {
    guard.create(null, held("me"));
    now.addAndGet(8 * SECOND);
    long renewStart = now.get();
    guard.update(null, held("me"));
    now.set(renewStart + 9 * SECOND);
    assertTrue(guard.holds());
  }

  @Test
  void stopsHolding_whenProcessWasFrozenPastTheDeadlineWithoutRenewing() {
    guard.create(null, held("me"));
    now.addAndGet(30 * SECOND); // SIGSTOP, a long GC pause: no renewal happened meanwhile
    assertFalse(guard.holds());
  }

  @Test
  void aFailedRenewalDoesNotExtendTheHold() {
    long start = now.get();
    guard.create(null, held("me"));
    failUpdates = true;
    now.set(start + 9 * SECOND);
    assertThrows(KubernetesClientException.class, () -> guard.update(null, held("me")));
    now.set(start + 10 * SECOND);
    assertFalse(guard.holds());
  }

  @Test
  void writingAnotherHoldersRecordOrForgettingEndsTheHold() {
    guard.create(null, held("me"));
    guard.update(null, held("someone-else"));
    assertFalse(guard.holds());
    guard.update(null, held("me"));
    assertTrue(guard.holds());
    guard.forget();
    assertFalse(guard.holds());
  }
}
