package io.rollgate.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The webhook's HTTPS endpoint called straight, as the API server calls it: {@code POST /validate}
 * with an AdmissionReview, and {@code GET /readyz}. The server's certificate is verified against
 * the webhook's CA.
 */
public final class WebhookEndpoint {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final int port;
  private final HttpClient http;

  /**
   * Creates a client of one webhook replica.
   *
   * @param port the replica's port on 127.0.0.1
   * @param caCrtBase64 the {@code ca.crt} of the webhook's certificate Secret, as the Secret stores
   *     it
   */
  public WebhookEndpoint(int port, String caCrtBase64) {
    this.port = port;
    try {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      trust.setCertificateEntry(
          "ca",
          CertificateFactory.getInstance("X.509")
              .generateCertificate(
                  new ByteArrayInputStream(Base64.getDecoder().decode(caCrtBase64))));
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      this.http =
          HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot trust the webhook's CA", e);
    }
  }

  /**
   * The status of {@code GET /readyz}.
   *
   * @return the HTTP status code
   */
  public int readyz() {
    return send(HttpRequest.newBuilder(uri("/readyz"))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build())
        .statusCode();
  }

  /**
   * Reviews the creation of an object.
   *
   * @param namespace the request's namespace
   * @param kind the object's kind in {@code argoproj.io/v1alpha1}, e.g. {@code Rollout}
   * @param resource its plural, e.g. {@code rollouts}
   * @param object the object as JSON
   * @return the review's {@code response} (with {@code allowed} and, when denied, {@code
   *     status.message})
   */
  public JsonNode reviewCreate(String namespace, String kind, String resource, String object) {
    ObjectNode review = JSON.createObjectNode();
    review.put("apiVersion", "admission.k8s.io/v1");
    review.put("kind", "AdmissionReview");
    ObjectNode request = review.putObject("request");
    request.put("uid", UUID.randomUUID().toString());
    request
        .putObject("kind")
        .put("group", "argoproj.io")
        .put("version", "v1alpha1")
        .put("kind", kind);
    request
        .putObject("resource")
        .put("group", "argoproj.io")
        .put("version", "v1alpha1")
        .put("resource", resource);
    request.put("namespace", namespace);
    request.put("operation", "CREATE");
    request.putObject("userInfo").put("username", "e2e");
    try {
      JsonNode obj = JSON.readTree(object);
      request.put("name", obj.path("metadata").path("name").asText());
      request.set("object", obj);
      HttpResponse<String> answer =
          send(
              HttpRequest.newBuilder(uri("/validate"))
                  .timeout(Duration.ofSeconds(20))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(review.toString()))
                  .build());
      if (answer.statusCode() != 200) {
        throw new IllegalStateException(
            "/validate answered " + answer.statusCode() + ": " + answer.body());
      }
      return JSON.readTree(answer.body()).path("response");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private URI uri(String path) {
    return URI.create("https://127.0.0.1:" + port + path);
  }

  private HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(request.uri() + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
