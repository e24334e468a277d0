package io.rollgate.controller.analysis.provider.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrometheusResultsTest {

  static JsonNode json(String s) throws Exception {
    return new ObjectMapper().readTree(s);
  }

  @Test
  void scalarIsADoubleWrittenLikeGo() throws Exception {
    PrometheusResults.Converted c =
        PrometheusResults.convert("scalar", json("[1700000000.1,\"0.950\"]"));
    assertEquals(0.95, c.value());
    assertEquals("0.95", c.text());
  }

  @Test
  void vectorIsTheListOfSampleValues() throws Exception {
    PrometheusResults.Converted c =
        PrometheusResults.convert(
            "vector",
            json(
                "[{\"metric\":{\"a\":\"1\"},\"value\":[1,\"0.5\"]},{\"metric\":{},\"value\":[1,\"1e-7\"]},"
                    + "{\"metric\":{},\"value\":[1,\"NaN\"]},{\"metric\":{},\"value\":[1,\"+Inf\"]}]"));
    List<?> values = (List<?>) c.value();
    assertEquals(0.5, values.get(0));
    assertEquals(1e-7, values.get(1));
    assertTrue(Double.isNaN((Double) values.get(2)));
    assertEquals(Double.POSITIVE_INFINITY, values.get(3));
    assertEquals("[0.5,0.0000001,NaN,+Inf]", c.text());
  }

  @Test
  void emptyVectorIsAnEmptyList() throws Exception {
    PrometheusResults.Converted c = PrometheusResults.convert("vector", json("[]"));
    assertEquals(List.of(), c.value());
    assertEquals("[]", c.text());
  }

  @Test
  void matrixFlattensEverySampleOfEverySeries() throws Exception {
    PrometheusResults.Converted c =
        PrometheusResults.convert(
            "matrix",
            json(
                "[{\"metric\":{},\"values\":[[1,\"1\"],[2,\"2\"]]},{\"metric\":{},\"values\":[[1,\"3.25\"]]}]"));
    assertEquals(List.of(1.0, 2.0, 3.25), c.value());
    assertEquals("[1,2,3.25]", c.text());
  }

  @Test
  void stringResultIsNotSupported() throws Exception {
    MetricProviderException e =
        assertThrows(
            MetricProviderException.class,
            () -> PrometheusResults.convert("string", json("[1,\"x\"]")));
    assertEquals("Prometheus metric type not supported", e.getMessage());
  }
}
