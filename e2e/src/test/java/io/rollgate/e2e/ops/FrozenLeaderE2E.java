package io.rollgate.e2e.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.FaultReport;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A leader frozen past its Lease (SIGSTOP standing in for a long GC pause or a stalled VM) sends no
 * write when it resumes, although reconciles were in flight when it froze: what reached the API
 * server is read from the API server's own audit log, where each controller process names itself in
 * its user agent (docs/reliability.md).
 */
class FrozenLeaderE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String BECAME_LEADER = "leader election: became leader";
  static final int ROUNDS = 5;
  static final Set<String> WRITES =
      Set.of("create", "update", "patch", "delete", "deletecollection");
  static final ObjectMapper JSON = new ObjectMapper();
  static final Map<String, String> METHODS =
      Map.of(
          "create",
          "POST",
          "update",
          "PUT",
          "patch",
          "PATCH",
          "delete",
          "DELETE",
          "deletecollection",
          "DELETE");

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static Path auditLog;
  static final List<ControllerProcess> processes = new ArrayList<>();

  /**
   * Per process: the log line where its current run starts (a restarted process appends to the same
   * log).
   */
  static final Map<ControllerProcess, Integer> runStart = new java.util.HashMap<>();

  static String[] flags;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    auditLog = auditLog();
    Assumptions.assumeTrue(
        auditLog != null,
        "the API server's audit log is only known on the local control plane (e2e/cluster/up)");
    ns = cluster.createNamespace("ops-frozen");
    rollouts = new Rollouts(cluster.client(), ns);
    flags =
        new String[] {
          "--namespace",
          ns,
          "--leader-elect",
          "--leader-election-namespace",
          ns,
          "--leader-election-lease-duration",
          "12s",
          "--leader-election-renew-deadline",
          "8s",
          "--leader-election-retry-period",
          "2s"
        };
    processes.add(ControllerProcess.start(cluster, "ops-frozen-1", flags));
    processes.add(ControllerProcess.start(cluster, "ops-frozen-2", flags));
  }

  @AfterAll
  static void tearDown() {
    for (ControllerProcess p : processes) {
      signal(p, "CONT");
      p.close();
    }
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  /**
   * The local control plane's audit log: {@code ROLLGATE_AUDIT_LOG}, else beside the kubeconfig
   * e2e/cluster/up wrote.
   */
  static Path auditLog() {
    String env = System.getenv("ROLLGATE_AUDIT_LOG");
    Path p =
        env != null && !env.isEmpty()
            ? Path.of(env)
            : cluster
                .kubeconfig()
                .toAbsolutePath()
                .getParent()
                .resolve("kwok/clusters/rollgate/logs/audit.log");
    return Files.isRegularFile(p) ? p : null;
  }

  static boolean leads(ControllerProcess p) {
    return p.isAlive()
        && !ControllerLog.of(p)
            .linesContaining(runStart.getOrDefault(p, 0), BECAME_LEADER)
            .isEmpty();
  }

  static void signal(ControllerProcess p, String signal) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).inheritIO().start();
      kill.waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Writes (not to Leases) that the API server received from this process at or after {@code
   * since}.
   */
  static List<String> writesBy(ControllerProcess p, Instant since) throws IOException {
    String agent = "(pid " + p.pid() + ")";
    List<String> found = new ArrayList<>();
    for (String line : Files.readAllLines(auditLog, StandardCharsets.UTF_8)) {
      if (!line.contains(agent)) {
        continue;
      }
      JsonNode e = JSON.readTree(line);
      String resource = e.at("/objectRef/resource").asText();
      if (!WRITES.contains(e.path("verb").asText())
          || "leases".equals(resource)
          || !e.path("userAgent").asText().contains(agent)) {
        continue;
      }
      Instant at = Instant.parse(e.path("requestReceivedTimestamp").asText());
      if (!at.isBefore(since)) {
        String path = e.path("requestURI").asText();
        int q = path.indexOf('?');
        found.add(
            at
                + " "
                + METHODS.getOrDefault(e.path("verb").asText(), "?")
                + " "
                + (q < 0 ? path : path.substring(0, q)));
      }
    }
    return found;
  }

  /**
   * The writes a process named as in flight when it noticed its pause, from its current run's log.
   */
  static List<String> inFlightAtPause(ControllerProcess p) {
    List<String> lines =
        ControllerLog.of(p)
            .linesContaining(
                runStart.getOrDefault(p, 0), io.rollgate.controller.leader.PauseDetector.PAUSED);
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      String list =
          line.substring(
              line.indexOf("may reach the API server late: ")
                  + "may reach the API server late: ".length());
      if (!list.equals("none")) {
        out.addAll(List.of(list.split(", ")));
      }
    }
    return out;
  }

  @Test
  void aLeaderFrozenPastItsLeaseSendsNoWriteWhenItResumes() throws IOException {
    int round = 0;
    int inFlightLate = 0;
    List<Long> takeoverMillis = new ArrayList<>();
    rollouts.create("ops/busy-rollout.yaml", Map.of("NAME", "busy"));
    while (round < ROUNDS) {
      round++;
      Awaitility.await("one controller leads")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> processes.stream().anyMatch(FrozenLeaderE2E::leads));
      ControllerProcess leader =
          processes.stream().filter(FrozenLeaderE2E::leads).findFirst().orElseThrow();
      ControllerProcess standby =
          processes.stream().filter(p -> p != leader).findFirst().orElseThrow();
      ControllerLog.of(standby)
          .awaitLine(runStart.getOrDefault(standby, 0), ControllerLog.SYNCED, TIMEOUT);
      int standbyFrom = ControllerLog.of(standby).size();

      // Keep the leader busy: every new image walks three weight steps with 1 s pauses.
      Instant updated = Instant.now();
      rollouts.setImage("busy", "registry.example/app:v" + (round + 1));
      Awaitility.await("the leader is writing for round " + round)
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> !writesBy(leader, updated).isEmpty());
      signal(leader, "STOP");
      Instant frozen = Instant.now();
      ControllerLog.of(standby).awaitLine(standbyFrom, BECAME_LEADER, Duration.ofSeconds(60));
      takeoverMillis.add(Duration.between(frozen, Instant.now()).toMillis());
      Instant resumed = Instant.now();
      signal(leader, "CONT");
      Awaitility.await("the deposed leader exits")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> !leader.isAlive());
      // A request already in the socket when the process froze goes out when it resumes, whatever
      // the process checks: it was sent while the Lease was held and only arrives late, as over a
      // slow network. The deposed process names such writes when it notices its pause
      // (PauseDetector); every late write must be one of them, and none may be one it started after
      // it resumed.
      List<String> late = writesBy(leader, resumed);
      List<String> inFlight = inFlightAtPause(leader);
      List<String> unexplained = new ArrayList<>();
      List<String> remaining = new ArrayList<>(inFlight);
      for (String w : late) {
        String request = w.substring(w.indexOf(' ') + 1);
        if (!remaining.remove(request)) {
          unexplained.add(w);
        }
      }
      inFlightLate += late.size() - unexplained.size();
      System.out.printf(
          "frozen leader round %d: takeover %d ms, writes started after resume %d, in flight at the freeze %d (%d"
              + " arrived late)%n",
          round,
          takeoverMillis.get(takeoverMillis.size() - 1),
          unexplained.size(),
          inFlight.size(),
          late.size() - unexplained.size());
      assertEquals(
          List.of(),
          unexplained,
          "round "
              + round
              + ": writes the deposed leader started after it resumed (in flight at the freeze: "
              + inFlight
              + ")");
      // The deposed process comes back as the new standby.
      runStart.put(leader, ControllerLog.of(leader).size());
      leader.restart();
      rollouts.await(
          "busy",
          "round " + round + " rollout finished by the new leader",
          TIMEOUT,
          r ->
              r.getStatus() != null
                  && "Healthy".equals(r.getStatus().getPhase())
                  && r.getStatus().getCurrentPodHash() != null
                  && r.getStatus().getCurrentPodHash().equals(r.getStatus().getStableRS()));
    }
    assertTrue(
        takeoverMillis.stream().allMatch(ms -> ms < 30_000), "takeover times " + takeoverMillis);
    FaultReport.record(
        "controller leader frozen past its Lease with reconciles in flight",
        "SIGSTOP until the standby leads, then SIGCONT; " + ROUNDS + " rounds",
        "no write started by the resumed process (API server audit log; requests in the socket at the freeze excepted,"
            + " as the process names them); the new leader finishes the Rollout",
        "passed; 0 writes started after a lost Lease ("
            + inFlightLate
            + " in flight at a freeze arrived late);"
            + " takeover ms "
            + takeoverMillis);
    System.out.println(
        "frozen leader: "
            + ROUNDS
            + " rounds, 0 writes after a lost Lease, takeover ms "
            + takeoverMillis);
  }
}
