package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading argo-rollouts-config: bad input never takes registered plugins away. */
class PluginRegistryWatchTest {

  final PluginRegistryWatch watch = new PluginRegistryWatch(null, null, "argo-rollouts", null);

  @Test
  void malformedYamlKeepsThePreviousPluginsOfThatKeyOnly() {
    watch.parse(
        Map.of(
            "trafficRouterPlugins", "- name: acme/router\n  location: file:///bin/r\n",
            "stepPlugins", "- name: acme/step\n  location: file:///bin/s\n"));
    PluginRegistry r =
        watch.parse(
            Map.of(
                "trafficRouterPlugins", "- name: [acme/router\n  location: :::",
                "stepPlugins", "- name: acme/step2\n  location: file:///bin/s2\n"));
    assertEquals(java.util.List.of("acme/router"), r.names(PluginKind.TRAFFIC_ROUTER));
    assertEquals(java.util.List.of("acme/step2"), r.names(PluginKind.STEP));
  }

  @Test
  void aMapInsteadOfAListKeepsThePreviousPlugins() {
    watch.parse(Map.of("stepPlugins", "- name: acme/step\n  location: file:///bin/s\n"));
    PluginRegistry r =
        watch.parse(Map.of("stepPlugins", "name: acme/other\nlocation: file:///bin/o\n"));
    assertEquals(java.util.List.of("acme/step"), r.names(PluginKind.STEP));
  }

  @Test
  void badNamesAndDuplicatesAreSkipped() {
    PluginRegistry r =
        watch.parse(
            Map.of(
                "stepPlugins",
                "- name: no-slash\n  location: file:///a\n- name: acme/a\n  location: file:///b\n"
                    + "- name: acme/a\n  location: file:///c\n- location: file:///d\n"));
    assertEquals(java.util.List.of("acme/a"), r.names(PluginKind.STEP));
    assertEquals("file:///b", r.find(PluginKind.STEP, "acme/a").orElseThrow().location());
  }

  @Test
  void removingAKeyOrTheConfigMapUnregisters() {
    watch.parse(Map.of("stepPlugins", "- name: acme/step\n  location: file:///bin/s\n"));
    assertEquals(java.util.List.of(), watch.parse(null).names(PluginKind.STEP));
  }
}
