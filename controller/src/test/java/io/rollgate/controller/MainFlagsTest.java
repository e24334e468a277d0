package io.rollgate.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A bad flag stops the controller before it connects, with one line naming the flag. */
class MainFlagsTest {

  private static String run(String... args) {
    CommandLine cmd = Main.commandLine();
    StringWriter err = new StringWriter();
    cmd.setErr(new PrintWriter(err));
    assertEquals(2, cmd.execute(args), "exit code of " + String.join(" ", args));
    return err.toString();
  }

  @Test
  void answersEachBadFlagWithOneLineNamingIt() {
    assertEquals(
        "rollgate-controller: --metricsport must be a TCP port 0..65535 (0: any free port), got"
            + " 70000\nRun 'rollgate-controller --help' for the flags.\n",
        run("--metricsport", "70000"));
    assertEquals(
        "rollgate-controller: Unknown option: '--bogus'\n"
            + "Run 'rollgate-controller --help' for the flags.\n",
        run("--bogus"));
    assertEquals(
        "rollgate-controller: --rollout-resync must be 0 (no resync) or more seconds, got -5\n"
            + "Run 'rollgate-controller --help' for the flags.\n",
        run("--rollout-resync", "-5"));
    assertEquals(
        "rollgate-controller: --qps must be a finite number of requests per second above 0, got"
            + " Infinity\nRun 'rollgate-controller --help' for the flags.\n",
        run("--qps", "Infinity"));
  }

  @Test
  void aStartFailingForAMissingCrdSaysSo() {
    Throwable notServed =
        new java.util.concurrent.CompletionException(
            new io.fabric8.kubernetes.client.KubernetesClientException(
                "Failure executing: GET at:"
                    + " https://127.0.0.1:6443/apis/argoproj.io/v1alpha1/rollouts?resourceVersion=0."
                    + " Message: Not Found.",
                404,
                null));
    assertEquals(
        "the API server does not serve /apis/argoproj.io/v1alpha1/rollouts (HTTP 404): are the"
            + " CRDs installed? (docs/install.md)",
        Main.startFailure(notServed));
    assertEquals(
        "java.io.IOException: connection refused",
        Main.startFailure(new java.io.IOException("connection refused")));
  }
}
