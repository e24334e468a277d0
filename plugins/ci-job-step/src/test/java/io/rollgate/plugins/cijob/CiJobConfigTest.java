package io.rollgate.plugins.cijob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading a {@code ci-job} step's configuration, with errors naming the field. */
class CiJobConfigTest {

  private static JsonNode json(String s) throws Exception {
    return new ObjectMapper().readTree(s);
  }

  @Test
  void readsEveryFieldAndAppliesDefaults() throws Exception {
    CiJobConfig c =
        CiJobConfig.parse(
            json(
                "{\"url\":\"https://ci.example.com/api/\",\"job\":\"smoke\",\"parameters\":{\"env\":\"staging\"},"
                    + "\"tokenSecret\":{\"name\":\"ci\"}}"));
    assertEquals("https://ci.example.com/api", c.url());
    assertEquals("smoke", c.job());
    assertEquals(Map.of("env", "staging"), c.parameters());
    assertEquals("ci", c.tokenSecretName());
    assertEquals("token", c.tokenSecretKey());
    assertEquals(15, c.pollIntervalSeconds());
    assertEquals(10, c.timeoutSeconds());
  }

  @Test
  void withoutTokenSecretNoTokenIsRead() throws Exception {
    CiJobConfig c =
        CiJobConfig.parse(json("{\"url\":\"http://ci\",\"job\":\"j\",\"pollIntervalSeconds\":60}"));
    assertNull(c.tokenSecretName());
    assertEquals(60, c.pollIntervalSeconds());
  }

  @Test
  void badConfigsNameTheField() throws Exception {
    assertEquals("config.url: required", message("{\"job\":\"j\"}"));
    assertEquals("config.job: required", message("{\"url\":\"http://ci\"}"));
    assertEquals(
        "config.url: must be an http(s) URL with a host, got ftp://ci",
        message("{\"url\":\"ftp://ci\",\"job\":\"j\"}"));
    assertEquals("config.job: must be a string", message("{\"url\":\"http://ci\",\"job\":3}"));
    assertEquals(
        "config.pollIntervalSeconds: must be at least 11",
        message("{\"url\":\"http://ci\",\"job\":\"j\",\"pollIntervalSeconds\":5}"));
    assertEquals(
        "config.parameters.a: must be a string",
        message("{\"url\":\"http://ci\",\"job\":\"j\",\"parameters\":{\"a\":{}}}"));
    assertEquals(
        "config.tokenSecret.name: required",
        message("{\"url\":\"http://ci\",\"job\":\"j\",\"tokenSecret\":{}}"));
    assertEquals("config: must be an object with url and job", message("[]"));
  }

  private static String message(String config) throws Exception {
    JsonNode node = json(config);
    return assertThrows(IllegalArgumentException.class, () -> CiJobConfig.parse(node)).getMessage();
  }
}
