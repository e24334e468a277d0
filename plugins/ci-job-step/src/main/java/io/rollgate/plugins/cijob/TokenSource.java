package io.rollgate.plugins.cijob;

import io.vertx.core.Future;

/**
 * Where the CI server's bearer token comes from: a Kubernetes Secret, named in the step's config.
 */
public interface TokenSource {

  /**
   * Reads a token.
   *
   * @param namespace the Secret's namespace (the Rollout's)
   * @param name the Secret's name
   * @param key the key in the Secret's data
   * @return the token (decoded, trimmed); a failed Future naming the Secret when it or the key is
   *     missing
   */
  Future<String> token(String namespace, String name, String key);
}
