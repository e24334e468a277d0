package io.rollgate.kube;

/**
 * An API-server call that failed, with its HTTP status code.
 *
 * <p>Codes follow the Kubernetes API conventions: 404 NotFound, 409 Conflict (stale resourceVersion
 * or AlreadyExists), 422 Invalid, 429 TooManyRequests; 0 means no HTTP answer (connection error).
 */
public final class KubeApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int code;

  /**
   * Creates the exception.
   *
   * @param verb the API verb
   * @param resource the resource
   * @param code the HTTP status code, 0 when none
   * @param message the API server's message
   * @param cause the client exception
   */
  public KubeApiException(String verb, String resource, int code, String message, Throwable cause) {
    super(verb + " " + resource + " failed (" + code + "): " + message, cause);
    this.code = code;
  }

  /**
   * Returns the HTTP status code.
   *
   * @return the code, 0 when there was no HTTP answer
   */
  public int code() {
    return code;
  }

  /**
   * Tells whether a failure is a 409 Conflict.
   *
   * @param t any failure
   * @return true for a {@link KubeApiException} with code 409
   */
  public static boolean isConflict(Throwable t) {
    return t instanceof KubeApiException k && k.code == 409;
  }

  /**
   * Tells whether a failure is a 404 NotFound.
   *
   * @param t any failure
   * @return true for a {@link KubeApiException} with code 404
   */
  public static boolean isNotFound(Throwable t) {
    return t instanceof KubeApiException k && k.code == 404;
  }

  /**
   * Finds the API server's answer in a failure reported by fabric8, which hands it over wrapped (an
   * informer's {@code CompletionException} around it, for example).
   *
   * @param err a failure, or null
   * @return the first {@code KubernetesClientException} among the failure and its causes, if any
   */
  public static java.util.Optional<io.fabric8.kubernetes.client.KubernetesClientException>
      clientFailure(Throwable err) {
    for (Throwable t = err; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof io.fabric8.kubernetes.client.KubernetesClientException k) {
        return java.util.Optional.of(k);
      }
    }
    return java.util.Optional.empty();
  }
}
