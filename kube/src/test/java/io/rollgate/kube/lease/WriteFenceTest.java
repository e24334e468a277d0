package io.rollgate.kube.lease;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Which requests the fence refuses without the Lease: all writes, or only the leader-only ones it
 * is given.
 */
class WriteFenceTest {

  @Test
  void everyWriteIsRefusedWithoutTheLease_readsAndLeaseRenewalsNever() {
    AtomicBoolean holds = new AtomicBoolean(true);
    WriteFence fence = new WriteFence();
    fence.guard(holds::get);
    assertFalse(fence.refuses("PATCH", "/apis/apps/v1/namespaces/a/replicasets/x"));
    holds.set(false);
    for (String method : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
      assertTrue(fence.refuses(method, "/apis/apps/v1/namespaces/a/replicasets/x"), method);
      assertFalse(
          fence.refuses(method, "/apis/coordination.k8s.io/v1/namespaces/a/leases/l"), method);
    }
    assertFalse(fence.refuses("GET", "/apis/apps/v1/namespaces/a/replicasets/x"));
  }

  @Test
  void aFenceOverSomeWritesLetsTheOthersThrough() {
    String secret = "/api/v1/namespaces/rollgate/secrets/certs";
    WriteFence fence =
        new WriteFence(
            (method, path) ->
                path.startsWith("/apis/rollgate.io/")
                    || path.equals(secret) && !"POST".equals(method));
    fence.guard(() -> false);
    assertTrue(fence.refuses("PATCH", "/apis/rollgate.io/v1alpha1/rolloutpolicies/p/status"));
    assertTrue(fence.refuses("PUT", secret));
    assertFalse(
        fence.refuses("POST", secret), "creating a missing Secret stays open to every replica");
    assertFalse(
        fence.refuses(
            "PATCH", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/w"));
    fence.guard(() -> true);
    assertFalse(fence.refuses("PUT", secret));
  }
}
