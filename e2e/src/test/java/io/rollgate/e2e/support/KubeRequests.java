package io.rollgate.e2e.support;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Raw API server requests, for what the typed client hides: the {@code Warning} headers an
 * admission webhook adds (what {@code kubectl apply} prints as {@code Warning: ...}).
 */
public final class KubeRequests {

  /**
   * An API server answer.
   *
   * @param code the HTTP status
   * @param body the response body
   * @param warnings the {@code Warning} headers' texts (the {@code 299 - "..."} wrapping removed)
   */
  public record Answer(int code, String body, List<String> warnings) {}

  private final KubernetesClient client;

  /**
   * Creates the helper.
   *
   * @param client the client whose connection and credentials are used
   */
  public KubeRequests(KubernetesClient client) {
    this.client = client;
  }

  /**
   * POSTs (creates) an object.
   *
   * @param path the collection path, for example {@code
   *     /apis/argoproj.io/v1alpha1/namespaces/ns/rollouts}
   * @param json the object as JSON
   * @return the answer
   */
  public Answer post(String path, String json) {
    HttpClient http = client.getHttpClient();
    String base = client.getMasterUrl().toString();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path)
            .post("application/json", json)
            .build();
    try {
      HttpResponse<String> response =
          http.sendAsync(request, String.class).get(60, TimeUnit.SECONDS);
      List<String> warnings =
          response.headers("Warning").stream()
              .map(
                  w ->
                      w.replaceFirst("^299 - \"", "").replaceFirst("\"$", "").replace("\\\"", "\""))
              .toList();
      return new Answer(response.code(), response.body(), warnings);
    } catch (Exception e) {
      throw new IllegalStateException("POST " + path + " failed", e);
    }
  }
}
