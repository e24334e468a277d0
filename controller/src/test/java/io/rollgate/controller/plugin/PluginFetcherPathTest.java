package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code file://} locations name files as in Argo Rollouts: authority and path together, relative
 * to the working directory.
 */
class PluginFetcherPathTest {

  @Test
  void relativeAndAbsoluteFileLocations() {
    Path cwd = Path.of("").toAbsolutePath();
    assertEquals(
        cwd.resolve("plugin-bin/e2e-step-plugin"),
        PluginFetcher.filePath(URI.create("file://plugin-bin/e2e-step-plugin")));
    assertEquals(
        Path.of("/opt/plugins/router"),
        PluginFetcher.filePath(URI.create("file:///opt/plugins/router")));
    assertEquals(
        cwd.resolve("./router").toAbsolutePath(),
        PluginFetcher.filePath(URI.create("file://./router")));
  }
}
