package io.rollgate.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramFlagsTest {

  @TempDir Path dir;

  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      current-context: local
      contexts:
      - name: local
        context: {cluster: c1, user: u1}
      clusters:
      - name: c1
        cluster: {server: "https://127.0.0.1:6443"}
      users:
      - name: u1
        user: {token: abc}
      """;

  @Test
  void acceptsArgoLogLevelNamesInAnyCase() {
    assertEquals("ERROR", ProgramFlags.logLevel("--loglevel", "panic"));
    assertEquals("WARN", ProgramFlags.logLevel("--loglevel", "Warning"));
    assertEquals("DEBUG", ProgramFlags.logLevel("--loglevel", "DEBUG"));
    assertEquals("TRACE", ProgramFlags.logLevel("--loglevel", "trace"));
  }

  @Test
  void rejectsAnUnknownLogLevelNamingTheFlag() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ProgramFlags.logLevel("--loglevel", "loud"));
    assertTrue(e.getMessage().startsWith("--loglevel must be one of"), e.getMessage());
    assertTrue(e.getMessage().endsWith("got 'loud'"), e.getMessage());
  }

  @Test
  void rejectsPortsOutsideTheTcpRange() {
    assertEquals(0, ProgramFlags.port("--metricsport", 0));
    assertEquals(65535, ProgramFlags.port("--metricsport", 65535));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ProgramFlags.port("--healthzPort", -1))
            .getMessage()
            .startsWith("--healthzPort must be a TCP port"));
    assertThrows(IllegalArgumentException.class, () -> ProgramFlags.port("--port", 65536));
  }

  @Test
  void rejectsRatesThatAreNotFinitePositive() {
    ProgramFlags.rate(0.5, 1);
    for (double qps : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertTrue(
          assertThrows(IllegalArgumentException.class, () -> ProgramFlags.rate(qps, 10))
              .getMessage()
              .startsWith("--qps "));
    }
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ProgramFlags.rate(10, 0))
            .getMessage()
            .startsWith("--burst "));
  }

  @Test
  void readsTheServerOfTheCurrentContext() throws IOException {
    Path file = Files.writeString(dir.resolve("config"), KUBECONFIG);
    assertEquals(
        "https://127.0.0.1:6443/",
        ProgramFlags.kubeconfig("--kubeconfig", file.toString(), true).getMasterUrl());
  }

  @Test
  void namesTheFileAndTheReasonForEveryBadKubeconfig() throws IOException {
    assertReason(dir.toString(), "is a directory, not a file");
    assertReason(dir.resolve("missing").toString(), "no such file");
    assertReason(write("word", "hello\n"), "not a kubeconfig file (expected a mapping");
    assertReason(write("syntax", "a: [b\n"), "not a kubeconfig file (");
    assertReason(write("empty", "apiVersion: v1\nkind: Config\n"), "no current-context is set");
    assertReason(
        write("nocontext", KUBECONFIG.replace("current-context: local", "current-context: other")),
        "current-context 'other' is not among the contexts");
    assertReason(
        write("noserver", KUBECONFIG.replace("server: \"https://127.0.0.1:6443\"", "server: \"\"")),
        "cluster 'c1' of context 'local' has no server");
  }

  @Test
  void aPartOfSeveralKubeconfigFilesNeedOnlyParse() throws IOException {
    String credentialsOnly = write("users", "apiVersion: v1\nkind: Config\nusers: []\n");
    ProgramFlags.kubeconfig("KUBECONFIG", credentialsOnly, false);
    assertThrows(
        IllegalArgumentException.class,
        () -> ProgramFlags.kubeconfig("KUBECONFIG", write("bad", "hello\n"), false));
  }

  private String write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text).toString();
  }

  private static void assertReason(String path, String reason) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ProgramFlags.kubeconfig("--kubeconfig", path, true));
    assertTrue(e.getMessage().startsWith("--kubeconfig " + path + ": " + reason), e.getMessage());
  }
}
