package io.rollgate.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThrottledTokenRefreshTest {

  private static final long SECOND = 1_000_000_000L;

  /** Counts the calls that reach fabric8's interceptor. */
  private static final class Counting implements Interceptor {
    final AtomicInteger before = new AtomicInteger();
    final AtomicInteger afterFailure = new AtomicInteger();

    @Override
    public void before(
        BasicBuilder headers,
        io.fabric8.kubernetes.client.http.HttpRequest request,
        RequestTags tags) {
      before.incrementAndGet();
    }

    @Override
    public CompletableFuture<Boolean> afterFailure(
        BasicBuilder headers, HttpResponse<?> response, RequestTags tags) {
      afterFailure.incrementAndGet();
      return CompletableFuture.completedFuture(true);
    }
  }

  private static Config certificateOnly() {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl("https://127.0.0.1:6443")
        .withClientCertData("Y2VydA==")
        .withClientKeyData("a2V5")
        .build();
  }

  @Test
  void withoutCredentialFabric8sRefreshRunsAtMostOnceAMinute() {
    AtomicLong now = new AtomicLong(0);
    Counting fabric8 = new Counting();
    ThrottledTokenRefresh t = new ThrottledTokenRefresh(certificateOnly(), fabric8, now::get);

    for (int s = 0; s < 180; s++) {
      now.set(s * SECOND);
      for (int i = 0; i < 100; i++) {
        t.before(null, null, null);
      }
    }
    // 18,000 requests over 3 minutes: tried at 60 s and at 120 s.
    assertEquals(2, fabric8.before.get());
  }

  @Test
  void aTokenGoesThroughFabric8OnEveryRequest() {
    Config config = new ConfigBuilder(certificateOnly()).withOauthToken("t0ken").build();
    Counting fabric8 = new Counting();
    ThrottledTokenRefresh t = new ThrottledTokenRefresh(config, fabric8, () -> 0L);

    for (int i = 0; i < 50; i++) {
      t.before(null, null, null);
    }
    assertEquals(50, fabric8.before.get());
  }

  @Test
  void aTokenFoundLaterIsSentFromThenOn() {
    Config config = certificateOnly();
    Counting fabric8 = new Counting();
    ThrottledTokenRefresh t = new ThrottledTokenRefresh(config, fabric8, () -> 0L);
    t.before(null, null, null);
    assertEquals(0, fabric8.before.get());

    // What fabric8's refresh does when it finds a token (after a 401, or in its minute).
    config.setAutoOAuthToken("found");
    t.before(null, null, null);
    t.before(null, null, null);
    assertEquals(2, fabric8.before.get());
  }

  @Test
  void anUnauthorizedAnswerAlwaysReachesFabric8() {
    Counting fabric8 = new Counting();
    ThrottledTokenRefresh t = new ThrottledTokenRefresh(certificateOnly(), fabric8, () -> 0L);
    t.afterFailure(null, null, null);
    t.afterFailure(null, null, null);
    assertEquals(2, fabric8.afterFailure.get());
  }

  @Test
  void credentialsFabric8Refreshes(@TempDir Path dir) throws Exception {
    assertFalse(ThrottledTokenRefresh.hasCredential(certificateOnly()));
    assertTrue(
        ThrottledTokenRefresh.hasCredential(
            new ConfigBuilder(certificateOnly()).withOauthToken("t").build()));
    assertTrue(
        ThrottledTokenRefresh.hasCredential(
            new ConfigBuilder(certificateOnly())
                .withUsername("admin")
                .withPassword("secret")
                .build()));
    assertTrue(
        ThrottledTokenRefresh.hasCredential(
            new ConfigBuilder(certificateOnly()).withOauthTokenProvider(() -> "t").build()));

    // A kubeconfig user with a token, as auto-configuration reads it.
    Path kubeconfig = dir.resolve("config");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster: {server: "https://127.0.0.1:6443"}
        users:
        - name: u
          user: {token: from-file}
        contexts:
        - name: x
          context: {cluster: c, user: u}
        current-context: x
        """);
    assertTrue(ThrottledTokenRefresh.hasCredential(Config.fromKubeconfig(kubeconfig.toFile())));
  }
}
