package io.rollgate.e2e.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.WebhookProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Certificates the webhook does not make itself (chart modes {@code provided} and {@code
 * certManager}): made with {@code certs-scripts/gen-webhook-certs}, read from a directory laid out
 * like a mounted {@code kubernetes.io/tls} Secret or from the Secret itself, served as they are,
 * and reloaded without a restart when the files change. A client that trusts only the script's
 * {@code ca.crt} and checks the 127.0.0.1 SAN tells which certificate is served.
 */
class ProvidedCertificatesE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(60);

  static TestCluster cluster;
  static KubernetesClient client;
  static String ns;
  static Path work;

  @BeforeAll
  static void setUp() throws IOException {
    cluster = TestCluster.get();
    client = cluster.client();
    ns = cluster.createNamespace("certs");
    work = Files.createDirectories(Path.of("target", "provided-certs").toAbsolutePath());
  }

  @AfterAll
  static void tearDown() {
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  /** Runs the openssl script into a fresh directory and returns it. */
  static Path generate(String name) throws Exception {
    Path out = work.resolve(name + "-" + System.nanoTime());
    Path script =
        Path.of(System.getProperty("rollgate.cluster.dir", "cluster"))
            .toAbsolutePath()
            .getParent()
            .getParent()
            .resolve("certs-scripts")
            .resolve("gen-webhook-certs");
    Process p =
        new ProcessBuilder(
                script.toString(),
                "--namespace",
                ns,
                "--service",
                "rollgate-webhook",
                "--secret-name",
                "rollgate-webhook-certs",
                "--san",
                "127.0.0.1",
                "--days",
                "30",
                "--out",
                out.toString())
            .redirectErrorStream(true)
            .start();
    String log = new String(p.getInputStream().readAllBytes());
    assertTrue(
        p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "gen-webhook-certs failed:\n" + log);
    for (String f : List.of("ca.crt", "ca.key", "tls.crt", "tls.key", "secret.yaml", "caBundle")) {
      assertTrue(Files.isRegularFile(out.resolve(f)), f + " missing in " + out);
    }
    return out;
  }

  /**
   * Swaps the three files in as the kubelet does for a Secret volume (write aside, then rename).
   */
  static void install(Path certs, Path dir) throws IOException {
    Files.createDirectories(dir);
    for (String f : List.of("ca.crt", "tls.crt", "tls.key")) {
      Path tmp = dir.resolve("." + f + ".tmp");
      Files.copy(certs.resolve(f), tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(
          tmp, dir.resolve(f), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
  }

  /**
   * GET /readyz trusting only the given CA (hostname 127.0.0.1 checked against the IP SAN): the
   * status, or -1.
   */
  static int readyzTrusting(Path caCrt, int port) {
    try {
      KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
      ks.load(null, null);
      ks.setCertificateEntry(
          "ca",
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(caCrt))));
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, tmf.getTrustManagers(), null);
      HttpClient http =
          HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(3)).build();
      return http.send(
              HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/readyz"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  @Test
  void servesScriptCertificatesFromFiles_andReloadsThemWithoutRestart() throws Exception {
    Path first = generate("first");
    Path dir = work.resolve("mounted-" + System.nanoTime());
    install(first, dir);
    int port = WebhookProcess.freePort();
    try (WebhookProcess webhook =
        WebhookProcess.start(
            cluster,
            "files",
            "--port",
            String.valueOf(port),
            "--bind-address",
            "127.0.0.1",
            "--namespace",
            ns,
            "--service-name",
            "rollgate-webhook",
            "--cert-source",
            "files",
            "--cert-dir",
            dir.toString(),
            "--cert-check-interval",
            "1")) {
      Awaitility.await("served with the first CA")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(300))
          .until(() -> readyzTrusting(first.resolve("ca.crt"), port) == 200);

      // Renewal: new files (a new CA, even) are picked up by the running process.
      Path second = generate("second");
      install(second, dir);
      Awaitility.await("served with the renewed certificate")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(300))
          .until(() -> readyzTrusting(second.resolve("ca.crt"), port) == 200);
      assertEquals(
          -1, readyzTrusting(first.resolve("ca.crt"), port), "old certificate still served");

      // A broken update is refused with its reason; the last good certificate stays in service.
      Files.writeString(dir.resolve("tls.crt"), "not a certificate\n");
      Awaitility.await("refusal logged")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(300))
          .until(() -> Files.readString(webhook.log()).contains("unreadable certificate or key"));
      assertEquals(200, readyzTrusting(second.resolve("ca.crt"), port));
      assertTrue(webhook.isAlive());
      // Nothing was written to the cluster: the provided mode never creates a certificate Secret.
      assertEquals(
          List.of(),
          client
              .secrets()
              .inNamespace(ns)
              .withLabel("app.kubernetes.io/managed-by", "rollgate-webhook")
              .list()
              .getItems());
    }
  }

  @Test
  void servesTheCertificateOfAnExistingSecret_madeByTheScriptsManifest() throws Exception {
    Path certs = generate("secret");
    for (HasMetadata o : client.load(Files.newInputStream(certs.resolve("secret.yaml"))).items()) {
      client.resource(o).inNamespace(ns).create();
    }
    int port = WebhookProcess.freePort();
    try (WebhookProcess webhook =
        WebhookProcess.start(
            cluster,
            "secret",
            "--port",
            String.valueOf(port),
            "--bind-address",
            "127.0.0.1",
            "--namespace",
            ns,
            "--service-name",
            "rollgate-webhook",
            "--cert-source",
            "secret",
            "--secret-name",
            "rollgate-webhook-certs",
            "--cert-check-interval",
            "1")) {
      Awaitility.await("served with the Secret's certificate")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(300))
          .until(() -> readyzTrusting(certs.resolve("ca.crt"), port) == 200);
      // Read, never rewritten.
      String rv =
          client
              .secrets()
              .inNamespace(ns)
              .withName("rollgate-webhook-certs")
              .get()
              .getMetadata()
              .getResourceVersion();
      Awaitility.await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(5))
          .until(
              () ->
                  rv.equals(
                      client
                          .secrets()
                          .inNamespace(ns)
                          .withName("rollgate-webhook-certs")
                          .get()
                          .getMetadata()
                          .getResourceVersion()));
      assertTrue(webhook.isAlive());
    }
  }
}
