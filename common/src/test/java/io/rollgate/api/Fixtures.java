package io.rollgate.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Loads test fixtures from {@code src/test/resources/fixtures}. */
final class Fixtures {

  private Fixtures() {}

  static String text(String name) {
    String resource = "/fixtures/" + name;
    try (InputStream in = Fixtures.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("missing test resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode tree(String name) {
    try {
      return ModelJson.mapper().readTree(text(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static AnalysisRun analysisRun(String name) {
    return ModelJson.fromJson(text(name), AnalysisRun.class);
  }

  static AnalysisTemplate analysisTemplate(String name) {
    return ModelJson.fromJson(text(name), AnalysisTemplate.class);
  }

  static Rollout rollout(String name) {
    return ModelJson.fromJson(text(name), Rollout.class);
  }
}
