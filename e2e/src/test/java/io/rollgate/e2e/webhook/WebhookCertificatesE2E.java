package io.rollgate.e2e.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.e2e.support.KubeRequests;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.WebhookProcess;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two webhook replicas share one certificate Secret with a forced short lifetime (40 s, renewed 25
 * s before expiry, so a new CA and certificate every ~15 s). Admissions stream through the
 * registered replica the whole time and none may fail; both replicas must end up serving the
 * certificate in the Secret. Also: the bad-input list sent straight to the HTTPS endpoint, and,
 * with the webhook stopped, other kinds are unaffected.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebhookCertificatesE2E {

  static final String SELECTOR_KEY = "rollgate.io/webhook-e2e";
  static final String SECRET = "rollgate-webhook-certs";
  static final AtomicInteger SEQ = new AtomicInteger();

  static TestCluster cluster;
  static KubernetesClient client;
  static KubeRequests requests;
  static String ns;
  static String configName;
  static int portA;
  static int portB;
  static WebhookProcess replicaA;
  static WebhookProcess replicaB;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    client = cluster.client();
    requests = new KubeRequests(client);
    ns = cluster.createNamespace("certs");
    client
        .namespaces()
        .withName(ns)
        .edit(
            n -> {
              n.getMetadata().getLabels().put(SELECTOR_KEY, ns);
              return n;
            });
    configName = "rollgate-webhook-e2e-" + ns;
    portA = WebhookProcess.freePort();
    portB = WebhookProcess.freePort();
    List<String> common =
        List.of(
            "--bind-address", "127.0.0.1",
            "--namespace", ns,
            "--tls-san", "127.0.0.1",
            "--cert-validity", "40s",
            "--cert-renew-before", "25s",
            "--cert-check-interval", "1");
    List<String> a = new ArrayList<>(common);
    a.addAll(
        List.of(
            "--port",
            String.valueOf(portA),
            "--register-url",
            "https://127.0.0.1:" + portA,
            "--validating-webhook-name",
            configName,
            "--mutating-webhook-name",
            configName,
            "--namespace-selector",
            SELECTOR_KEY + "=" + ns));
    List<String> b = new ArrayList<>(common);
    b.addAll(List.of("--port", String.valueOf(portB)));
    replicaA = WebhookProcess.start(cluster, ns + "-a", a.toArray(String[]::new));
    replicaB = WebhookProcess.start(cluster, ns + "-b", b.toArray(String[]::new));
    Awaitility.await("webhook registered and serving")
        .atMost(Duration.ofSeconds(240))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> createRollout("probe", "other").code() == 422);
  }

  @AfterAll
  static void tearDown() {
    for (WebhookProcess p : new WebhookProcess[] {replicaA, replicaB}) {
      if (p != null) {
        p.close();
      }
    }
    if (client != null && configName != null) {
      client
          .admissionRegistration()
          .v1()
          .validatingWebhookConfigurations()
          .withName(configName)
          .delete();
      client
          .admissionRegistration()
          .v1()
          .mutatingWebhookConfigurations()
          .withName(configName)
          .delete();
    }
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  /**
   * Creates a Rollout (dry run: the webhook is called, nothing is stored); labels other than the
   * name are invalid.
   */
  static KubeRequests.Answer createRollout(String prefix, String templateLabel) {
    String name = prefix + "-" + SEQ.incrementAndGet();
    String json =
        "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\""
            + name
            + "\"},"
            + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\""
            + name
            + "\"}},\"template\":{\"metadata\":"
            + "{\"labels\":{\"app\":\""
            + (templateLabel == null ? name : templateLabel)
            + "\"}},\"spec\":"
            + "{\"containers\":[{\"name\":\"web\",\"image\":\"nginx\"}]}},\"strategy\":{\"canary\":{\"steps\":"
            + "[{\"setWeight\":20},{\"pause\":{}}]}}}}";
    return requests.post(
        "/apis/argoproj.io/v1alpha1/namespaces/" + ns + "/rollouts?dryRun=All", json);
  }

  static Map<String, String> secretData() {
    Secret s = client.secrets().inNamespace(ns).withName(SECRET).get();
    return s == null ? Map.of() : s.getData();
  }

  static X509Certificate parse(String base64Pem) throws Exception {
    byte[] pem = Base64.getDecoder().decode(base64Pem);
    return (X509Certificate)
        CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(pem));
  }

  /** The certificate a replica presents in a TLS handshake (not verified: only compared). */
  static X509Certificate served(int port) throws Exception {
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, new TrustManager[] {new TrustAll()}, null);
    try (SSLSocket socket = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      socket.startHandshake();
      return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }
  }

  @Test
  @Order(1)
  void rotatesUnderAStreamOfAdmissions_withZeroFailures_andBothReplicasServeTheSecretsCertificate()
      throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger ok = new AtomicInteger();
    List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread stream =
        new Thread(
            () -> {
              while (!stop.get()) {
                try {
                  KubeRequests.Answer a = createRollout("stream", null);
                  if (a.code() == 201) {
                    ok.incrementAndGet();
                  } else {
                    failures.add(a.code() + " " + a.body());
                  }
                } catch (RuntimeException e) {
                  failures.add(e.toString());
                }
              }
            },
            "admission-stream");
    stream.start();
    Set<String> serials = ConcurrentHashMap.newKeySet();
    serials.add(parse(secretData().get("tls.crt")).getSerialNumber().toString(16));
    try {
      Awaitility.await("three certificate rotations")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptions()
          .until(
              () -> {
                serials.add(parse(secretData().get("tls.crt")).getSerialNumber().toString(16));
                return serials.size() >= 4;
              });
      // Both replicas pick up the last certificate written (one renewed it, the other hot-reloaded
      // it).
      Awaitility.await("both replicas serve the Secret's certificate")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .until(
              () -> {
                X509Certificate inSecret = parse(secretData().get("tls.crt"));
                return inSecret.equals(served(portA)) && inSecret.equals(served(portB));
              });
    } finally {
      stop.set(true);
      stream.join(30_000);
    }
    assertEquals(List.of(), failures, "failed admissions during rotation");
    assertTrue(ok.get() > 20, "admissions during the rotations: " + ok.get());
    System.out.printf(
        "certificate rotations: %d, admissions during them: %d, failures: 0%n",
        serials.size() - 1, ok.get());
    // Still checking after the rotations.
    assertEquals(422, createRollout("still-checked", "other").code());
  }

  static HttpClient verifyingClient() throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    trust.setCertificateEntry("ca", parse(secretData().get("ca.crt")));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
  }

  static HttpResponse<String> postRaw(HttpClient http, int port, byte[] body) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/validate"))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  @Order(2)
  void badInputStraightAtTheHttpsEndpointGetsAClearAnswer() throws Exception {
    // The CA may rotate between reading it and connecting: retry the whole list until one pass is
    // clean.
    Awaitility.await("bad-input list answered")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              HttpClient http = verifyingClient();
              int port = portB;
              HttpResponse<String> malformed =
                  postRaw(http, port, "{\"apiVersion\": \"admission".getBytes());
              assertEquals(400, malformed.statusCode(), malformed.body());
              assertTrue(malformed.body().contains("malformed JSON"), malformed.body());
              HttpResponse<String> wrongKind =
                  postRaw(
                      http,
                      port,
                      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"request\":{}}".getBytes());
              assertEquals(400, wrongKind.statusCode(), wrongKind.body());
              assertTrue(
                  wrongKind
                      .body()
                      .contains("expected apiVersion admission.k8s.io/v1 kind AdmissionReview"),
                  wrongKind.body());
              HttpResponse<String> empty = postRaw(http, port, new byte[0]);
              assertEquals(400, empty.statusCode(), empty.body());
              assertTrue(empty.body().contains("empty body"), empty.body());
              String huge =
                  "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                      + "\"kind\":{\"group\":\"argoproj.io\",\"version\":\"v1alpha1\",\"kind\":\"Rollout\"},"
                      + "\"operation\":\"CREATE\",\"object\":{\"metadata\":{\"annotations\":{\"big\":\""
                      + "x".repeat(5 * 1024 * 1024)
                      + "\"}}}}}";
              HttpResponse<String> tooLarge =
                  postRaw(http, port, huge.getBytes(StandardCharsets.UTF_8));
              assertEquals(413, tooLarge.statusCode(), tooLarge.body());
              String nested = "[".repeat(5000) + "]".repeat(5000);
              HttpResponse<String> deep =
                  postRaw(
                      http,
                      port,
                      ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":"
                              + nested
                              + "}")
                          .getBytes());
              assertEquals(400, deep.statusCode(), deep.body());
              assertTrue(deep.body().contains("too deeply nested"), deep.body());
              // And the endpoint still answers a real review afterwards.
              String good =
                  "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u1\","
                      + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},\"operation\":\"CREATE\"}}";
              HttpResponse<String> fine = postRaw(http, port, good.getBytes());
              assertEquals(200, fine.statusCode(), fine.body());
              assertTrue(fine.body().contains("\"allowed\":true"), fine.body());
            });
  }

  @Test
  @Order(3)
  void withTheWebhookStopped_otherKindsAreUnaffected() {
    replicaA.close();
    replicaB.close();
    KubeRequests.Answer down = createRollout("while-down", null);
    assertEquals(500, down.code(), down.body());
    assertTrue(down.body().contains("failed calling webhook"), down.body());
    assertNotNull(
        client
            .apps()
            .deployments()
            .inNamespace(ns)
            .resource(
                new DeploymentBuilder()
                    .withNewMetadata()
                    .withName("unaffected")
                    .endMetadata()
                    .withNewSpec()
                    .withNewSelector()
                    .addToMatchLabels("app", "unaffected")
                    .endSelector()
                    .withNewTemplate()
                    .withNewMetadata()
                    .addToLabels("app", "unaffected")
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("web")
                    .withImage("nginx")
                    .endContainer()
                    .endSpec()
                    .endTemplate()
                    .endSpec()
                    .build())
            .create());
    assertNotNull(
        client
            .configMaps()
            .inNamespace(ns)
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("unaffected")
                    .endMetadata()
                    .addToData("k", "v")
                    .build())
            .create());
    // The plugin registry is validated with failurePolicy Ignore: admitted unchecked while the
    // webhook is down.
    assertNotNull(
        client
            .configMaps()
            .inNamespace(ns)
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("argo-rollouts-config")
                    .endMetadata()
                    .addToData("stepPlugins", "- name: acme/step\n  location: file://./step\n")
                    .build())
            .create());
  }

  /** Accepts any certificate: used only to read which certificate a replica presents. */
  static final class TrustAll implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
