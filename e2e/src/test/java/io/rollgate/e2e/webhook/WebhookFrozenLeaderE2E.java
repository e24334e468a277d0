package io.rollgate.e2e.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.FaultReport;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.WebhookProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The webhook's leader-only work (policy audit results, certificate renewal) is fenced on its
 * Lease: a leader frozen past its Lease (SIGSTOP) that resumes while the other replica leads sends
 * no write to a RolloutPolicy or to the certificate Secret, as the API server's own audit log shows
 * (each replica names itself by pid in its user agent).
 */
class WebhookFrozenLeaderE2E {

  static final int ROUNDS = 3;
  static final String HOLDS = "holds Lease";
  static final Set<String> WRITES =
      Set.of("create", "update", "patch", "delete", "deletecollection");
  static final Set<String> LEADER_ONLY = Set.of("rolloutpolicies", "secrets");
  static final ObjectMapper JSON = new ObjectMapper();

  static TestCluster cluster;
  static KubernetesClient client;
  static String ns;
  static Path auditLog;
  static final List<WebhookProcess> replicas = new ArrayList<>();

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    client = cluster.client();
    Path p =
        cluster
            .kubeconfig()
            .toAbsolutePath()
            .getParent()
            .resolve("kwok/clusters/rollgate/logs/audit.log");
    String env = System.getenv("ROLLGATE_AUDIT_LOG");
    auditLog = env != null && !env.isEmpty() ? Path.of(env) : p;
    Assumptions.assumeTrue(
        Files.isRegularFile(auditLog),
        "the API server's audit log is only known on the local control plane");
    ns = cluster.createNamespace("webhook-frozen");
    String yaml =
        "apiVersion: rollgate.io/v1alpha1\nkind: RolloutPolicy\nmetadata:\n  name: "
            + ns
            + "\n"
            + "spec:\n  enforcementAction: audit\n  namespaceSelector: {matchLabels: {frozen-e2e: "
            + ns
            + "}}\n"
            + "  rules: {maxReplicas: 3}\n";
    client
        .resources(RolloutPolicy.class)
        .resource(client.getKubernetesSerialization().unmarshal(yaml, RolloutPolicy.class))
        .create();
    for (String name : List.of("a", "b")) {
      replicas.add(
          WebhookProcess.start(
              cluster,
              ns + "-" + name,
              "--port",
              String.valueOf(WebhookProcess.freePort()),
              "--bind-address",
              "127.0.0.1",
              "--namespace",
              ns,
              "--tls-san",
              "127.0.0.1",
              "--leader-elect",
              "--audit-interval",
              "1",
              "--cert-check-interval",
              "1"));
    }
  }

  @AfterAll
  static void tearDown() {
    for (WebhookProcess p : replicas) {
      signal(p, "CONT");
      p.close();
    }
    if (client != null && ns != null) {
      client.resources(RolloutPolicy.class).withName(ns).delete();
      cluster.deleteNamespace(ns);
    }
  }

  static int generation = 3;

  /**
   * Changes the policy's spec, so that the next audit has a new result to write (its {@code
   * observedGeneration}): the audit writes a status only when the result changed (README.md,
   * RolloutPolicy).
   */
  static void changePolicy() {
    generation++;
    client
        .resources(RolloutPolicy.class)
        .withName(ns)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"rules\":{\"maxReplicas\":" + generation + "}}}");
  }

  static int holds(WebhookProcess p) {
    return new ControllerLog(p.log()).linesContaining(0, HOLDS).size();
  }

  static void signal(WebhookProcess p, String signal) {
    try {
      new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid()))
          .inheritIO()
          .start()
          .waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Leader-only writes (RolloutPolicies, Secrets) the API server received from this replica at or
   * after a time.
   */
  static List<String> leaderWritesBy(WebhookProcess p, Instant since) throws IOException {
    return writesBy(p, since, LEADER_ONLY);
  }

  /** Writes to these resources the API server received from this replica at or after a time. */
  static List<String> writesBy(WebhookProcess p, Instant since, Set<String> resources)
      throws IOException {
    String agent = "(pid " + p.pid() + ")";
    List<String> found = new ArrayList<>();
    for (String line : Files.readAllLines(auditLog, StandardCharsets.UTF_8)) {
      if (!line.contains(agent) || !line.contains("rollgate-webhook/")) {
        continue;
      }
      JsonNode e = JSON.readTree(line);
      String resource = e.at("/objectRef/resource").asText();
      if (!WRITES.contains(e.path("verb").asText())
          || !resources.contains(resource)
          || !e.path("userAgent").asText().contains(agent)) {
        continue;
      }
      Instant at = Instant.parse(e.path("requestReceivedTimestamp").asText());
      if (!at.isBefore(since)) {
        found.add(
            at
                + " "
                + e.path("verb").asText()
                + " "
                + resource
                + " "
                + e.at("/objectRef/name").asText());
      }
    }
    return found;
  }

  @Test
  void aLeaderFrozenPastItsLeaseWritesNoPolicyStatusOrSecretWhenItResumes() throws IOException {
    List<Long> takeoverMillis = new ArrayList<>();
    for (int round = 1; round <= ROUNDS; round++) {
      int[] before = {holds(replicas.get(0)), holds(replicas.get(1))};
      // The leader is the replica that most recently logged that it holds the Lease and is not
      // frozen.
      Instant since = Instant.now();
      changePolicy();
      Awaitility.await("round " + round + ": the leader writes audit results")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> replicas.stream().anyMatch(r -> !uncheckedWrites(r, since).isEmpty()));
      WebhookProcess leader =
          replicas.stream()
              .filter(r -> !uncheckedWrites(r, since).isEmpty())
              .findFirst()
              .orElseThrow();
      WebhookProcess standby = replicas.get(replicas.get(0) == leader ? 1 : 0);
      int standbyHolds = holds(standby);

      signal(leader, "STOP");
      Instant frozen = Instant.now();
      Awaitility.await("round " + round + ": the standby takes the Lease")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> holds(standby) > standbyHolds);
      takeoverMillis.add(Duration.between(frozen, Instant.now()).toMillis());
      Instant resumed = Instant.now();
      signal(leader, "CONT");
      changePolicy();
      // Give the resumed replica time for its pending audit and certificate timers to fire, while
      // the new leader keeps writing.
      Awaitility.await("round " + round + ": the new leader writes audit results")
          .atMost(Duration.ofSeconds(30))
          .pollDelay(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> !uncheckedWrites(standby, resumed).isEmpty());
      List<String> late = leaderWritesBy(leader, resumed);
      System.out.printf(
          "webhook frozen leader round %d: takeover %d ms, leader-only writes after resume %d (holds before %d/%d)%n",
          round, takeoverMillis.get(round - 1), late.size(), before[0], before[1]);
      assertEquals(
          List.of(), late, "round " + round + ": writes the deposed leader sent after it resumed");
      assertTrue(leader.isAlive(), "a webhook that lost its Lease keeps serving");
    }
    FaultReport.record(
        "webhook leader frozen past its Lease",
        "SIGSTOP until the other replica leads, then SIGCONT; " + ROUNDS + " rounds",
        "no write to a RolloutPolicy or the certificate Secret from the resumed replica (API server audit log)",
        "passed; 0 leader-only writes after a lost Lease; takeover ms " + takeoverMillis);
    System.out.println(
        "webhook frozen leader: "
            + ROUNDS
            + " rounds, 0 leader-only writes after a lost Lease, takeover ms "
            + takeoverMillis);
  }

  /** Policy audit writes: only the leader sends them, about every second here. */
  private static List<String> uncheckedWrites(WebhookProcess p, Instant since) {
    try {
      return writesBy(p, since, Set.of("rolloutpolicies"));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
