package io.rollgate.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.TokenRefreshInterceptor;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * fabric8's token refresh ({@link TokenRefreshInterceptor}), tried at most once a minute when the
 * kubeconfig gives no credential to refresh.
 *
 * <p>Why: fabric8 7.9 re-reads the configuration (the kubeconfig file, parsed as YAML, and the
 * service-account token) before a request when its last successful refresh is more than a minute
 * old, and it counts a refresh as successful only when it found a token. With a client certificate
 * and no token (a kubeconfig such as the local control plane's, or one made for a controller run
 * outside the cluster) no refresh ever succeeds, so from the second minute on every API request
 * parsed the kubeconfig again: about half the CPU of the controller's API threads while it updated
 * 300 Rollouts (docs/performance.md).
 *
 * <p>What changes: where the configuration has a credential that can be refreshed (a bearer token
 * from the kubeconfig, the service-account token or an exec plugin, a token provider, an {@code
 * auth-provider}, or basic auth) every request goes through fabric8's interceptor as before. Where
 * it has none, fabric8's interceptor runs for at most one request a minute, so a token that appears
 * later is still picked up within a minute; and after a 401 fabric8 refreshes at once, as before.
 */
public final class ThrottledTokenRefresh implements Interceptor {

  /** How often a refresh is tried when there is no credential: fabric8's own interval. */
  static final Duration INTERVAL = Duration.ofMinutes(1);

  private final Config config;
  private final Interceptor delegate;
  private final LongSupplier nanoClock;
  private final AtomicLong lastTry;

  /**
   * Wraps fabric8's interceptor.
   *
   * @param config the client's configuration (the same instance fabric8's interceptor refreshes)
   * @param delegate fabric8's token interceptor for that configuration
   * @param nanoClock a monotonic clock in nanoseconds ({@link System#nanoTime} outside tests)
   */
  ThrottledTokenRefresh(Config config, Interceptor delegate, LongSupplier nanoClock) {
    this.config = config;
    this.delegate = delegate;
    this.nanoClock = nanoClock;
    this.lastTry = new AtomicLong(nanoClock.getAsLong());
  }

  /**
   * Replaces the token interceptor fabric8 installed on a client builder (under {@link
   * TokenRefreshInterceptor#NAME}) by this one around a new fabric8 interceptor.
   *
   * @param builder a builder from {@link HttpClient.Factory#newBuilder(Config)}
   * @param config the configuration the builder was made from
   * @param factory the factory, used by fabric8's interceptor for OpenID Connect token requests
   * @return the builder
   */
  public static HttpClient.Builder install(
      HttpClient.Builder builder, Config config, HttpClient.Factory factory) {
    return builder.addOrReplaceInterceptor(
        TokenRefreshInterceptor.NAME,
        new ThrottledTokenRefresh(
            config, new TokenRefreshInterceptor(config, factory, Instant.now()), System::nanoTime));
  }

  @Override
  public void before(BasicBuilder headers, HttpRequest request, RequestTags tags) {
    if (hasCredential(config) || tryDue()) {
      delegate.before(headers, request, tags);
    }
  }

  @Override
  public CompletableFuture<Boolean> afterFailure(
      BasicBuilder headers, HttpResponse<?> response, RequestTags tags) {
    return delegate.afterFailure(headers, response, tags);
  }

  /**
   * Whether the configuration holds anything fabric8's interceptor refreshes or sends.
   *
   * @param config the client's configuration
   * @return true for a bearer token (given, provided or found by auto-configuration), an {@code
   *     auth-provider}, or a user name and password
   */
  static boolean hasCredential(Config config) {
    return config.getOauthTokenProvider() != null
        || notEmpty(config.getOauthToken())
        || notEmpty(config.getAutoOAuthToken())
        || config.getAuthProvider() != null
        || notEmpty(config.getUsername())
        || notEmpty(config.getPassword());
  }

  private boolean tryDue() {
    long now = nanoClock.getAsLong();
    long last = lastTry.get();
    return now - last >= INTERVAL.toNanos() && lastTry.compareAndSet(last, now);
  }

  private static boolean notEmpty(String s) {
    return s != null && !s.isEmpty();
  }
}
