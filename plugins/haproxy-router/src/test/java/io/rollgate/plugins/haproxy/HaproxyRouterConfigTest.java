package io.rollgate.plugins.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.Rollout;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HaproxyRouterConfigTest {

  private static final String FIELD =
      "spec.strategy.canary.trafficRouting.plugins[\"rollgate/haproxy\"]";

  private static String error(Rollout rollout, String name) {
    return assertThrows(
            IllegalArgumentException.class, () -> HaproxyRouterConfig.fromRollout(rollout, name))
        .getMessage();
  }

  private static String error(ObjectNode config) {
    return error(TestRollouts.withConfig(config), TestRollouts.PLUGIN);
  }

  @Test
  void readsAFullConfiguration() {
    ObjectNode c = TestRollouts.config("/run/haproxy/admin.sock", "web", "stable", "canary");
    c.putObject("additionalServers").put("web-experiment", "experiment");
    c.put("timeoutSeconds", 3);
    HaproxyRouterConfig config =
        HaproxyRouterConfig.fromRollout(TestRollouts.withConfig(c), TestRollouts.PLUGIN);
    assertEquals("/run/haproxy/admin.sock", config.runtimeApi().unixPath());
    assertEquals("web", config.backend());
    assertEquals("stable", config.stableServer());
    assertEquals("canary", config.canaryServer());
    assertEquals(Map.of("web-experiment", "experiment"), config.additionalServers());
    assertEquals(Duration.ofSeconds(3), config.timeout());
    assertEquals(FIELD, config.field());
  }

  @Test
  void findsTheSingleHaproxyEntry_whenThePluginNameIsUnknown() {
    Rollout rollout =
        TestRollouts.withPlugins(
            "{\"other/router\":{},\"acme/haproxy\":"
                + TestRollouts.config("127.0.0.1:9999", "web", "s", "c")
                + "}",
            null);
    HaproxyRouterConfig config = HaproxyRouterConfig.fromRollout(rollout, null);
    assertEquals("spec.strategy.canary.trafficRouting.plugins[\"acme/haproxy\"]", config.field());
    assertEquals(
        "spec.strategy.canary.trafficRouting.plugins: expected exactly one entry named <org>/haproxy, found []",
        error(TestRollouts.withPlugins("{\"other/router\":{}}", null), null));
  }

  @Test
  void namesTheMissingEntry() {
    Rollout rollout = TestRollouts.withPlugins("{\"other/router\":{}}", null);
    assertEquals(
        FIELD + ": missing: the Rollout does not configure this traffic router",
        error(rollout, "rollgate/haproxy"));
  }

  @Test
  void namesEachMissingOrInvalidField() {
    ObjectNode c = TestRollouts.config("/s", "web", "stable", "canary");
    c.remove("backend");
    assertEquals(FIELD + ".backend: required", error(c));

    c = TestRollouts.config("  ", "web", "stable", "canary");
    assertEquals(FIELD + ".runtimeApi: must be a non-empty string, got \"  \"", error(c));

    c = TestRollouts.config("admin.sock", "web", "stable", "canary");
    assertEquals(
        FIELD
            + ".runtimeApi: \"admin.sock\" is neither an absolute unix socket path (/run/haproxy/admin.sock) nor "
            + "host:port",
        error(c));

    c = TestRollouts.config("/s", "web", "stable", "stable");
    assertEquals(
        FIELD + ".canaryServer: must differ from stableServer (both are \"stable\")", error(c));

    c = TestRollouts.config("/s", "web", "stable", "canary");
    c.put("timeoutSeconds", 0);
    assertEquals(FIELD + ".timeoutSeconds: must be a positive integer, got 0", error(c));

    c = TestRollouts.config("/s", "web", "stable", "canary");
    c.put("stableserver", "x");
    assertEquals(
        FIELD
            + ".stableserver: unknown field (known: runtimeApi, backend, stableServer, canaryServer, "
            + "additionalServers, timeoutSeconds)",
        error(c));

    c = TestRollouts.config("/s", "web", "stable", "canary");
    c.putObject("additionalServers").put("web-exp", "canary");
    assertEquals(
        FIELD + ".additionalServers.web-exp: \"canary\" is already the stable or canary server",
        error(c));
  }

  @Test
  void refusesNamesThatWouldChangeTheRuntimeApiCommand() {
    ObjectNode c =
        TestRollouts.config("/s", "web; shutdown sessions server web/stable", "stable", "canary");
    assertEquals(
        FIELD
            + ".backend: must be an HAProxy name (letters, digits, '-', '_', '.', ':'), got "
            + "\"web; shutdown sessions server web/stable\"",
        error(c));
    c = TestRollouts.config("/s", "web", "stable\n", "canary");
    assertEquals(
        FIELD
            + ".stableServer: must be an HAProxy name (letters, digits, '-', '_', '.', ':'), got \"stable\\n\"",
        error(c));
  }

  @Test
  void refusesAConfigurationThatIsNotAnObject() {
    Rollout rollout = TestRollouts.withPlugins("{\"rollgate/haproxy\":\"web\"}", null);
    assertEquals(FIELD + ": must be an object, got string", error(rollout, TestRollouts.PLUGIN));
  }
}
