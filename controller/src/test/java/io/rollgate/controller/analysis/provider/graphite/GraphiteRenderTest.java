package io.rollgate.controller.analysis.provider.graphite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphiteRenderTest {

  @Test
  void urlRemovesWhiteSpaceSortsParametersAndAddsJsonFormat() {
    String url =
        GraphiteRender.url(
            "http://graphite.example:8080",
            "target=summarize(\n  asPercent(app.errors.*, app.requests.*),\n  '5min', 'avg')\n&from=-5min");
    assertEquals(
        "http://graphite.example:8080/render?format=json&from=-5min"
            + "&target=summarize%28asPercent%28app.errors.%2A%2Capp.requests.%2A%29%2C%275min%27%2C%27avg%27%29",
        url);
  }

  @Test
  void urlKeepsTheAddressPathAndReplacesAGivenFormat() {
    assertEquals(
        "https://g.example/graphite/render?format=json&target=a.b",
        GraphiteRender.url("https://g.example/graphite/", "target=a.b&format=csv"));
    assertEquals(
        "http://g:80/render?format=json&target=a+b&target=c",
        GraphiteRender.url("http://g:80", "target=a%20b&target=c"));
  }

  @Test
  void badAddressOrEscapeIsAnError() {
    assertEquals(
        "Graphite address  is not a valid URL",
        assertThrows(MetricProviderException.class, () -> GraphiteRender.url("", "target=a"))
            .getMessage());
    assertEquals(
        "Graphite address graphite:8080 is not a valid URL",
        assertThrows(
                MetricProviderException.class,
                () -> GraphiteRender.url("graphite:8080", "target=a"))
            .getMessage());
    assertEquals(
        "graphite query: invalid URL escape \"%zz\"",
        assertThrows(
                MetricProviderException.class, () -> GraphiteRender.url("http://g", "target=%zz"))
            .getMessage());
  }

  @Test
  void valuesAreTheFirstTargetsNonNullDatapoints() {
    List<Double> values =
        GraphiteRender.values(
            200,
            "[{\"target\":\"a\",\"datapoints\":[[null,1700000000],[5.0,1700000010],[\"7.5\",\"1700000020\"],"
                + "[null,1700000030]]},{\"target\":\"b\",\"datapoints\":[[99,1700000000]]}]");
    assertEquals(List.of(5.0, 7.5), values);
    assertEquals("[5.000000,7.500000]", GraphiteRender.text(values));
  }

  @Test
  void onlyNullsGiveAnEmptyList() {
    List<Double> values =
        GraphiteRender.values(200, "[{\"target\":\"a\",\"datapoints\":[[null,1],[null,2]]}]");
    assertEquals(List.of(), values);
    assertEquals("[]", GraphiteRender.text(values));
  }

  @Test
  void noTargetOrNoDatapointsIsNoValuesFound() {
    assertEquals(
        "no values found",
        assertThrows(MetricProviderException.class, () -> GraphiteRender.values(200, "[]"))
            .getMessage());
    assertEquals(
        "no values found",
        assertThrows(
                MetricProviderException.class,
                () -> GraphiteRender.values(200, "[{\"target\":\"a\",\"datapoints\":[]}]"))
            .getMessage());
  }

  @Test
  void errorStatusAndMalformedAnswersAreErrors() {
    assertEquals(
        "error response: Invalid parameters",
        assertThrows(
                MetricProviderException.class,
                () -> GraphiteRender.values(400, "Invalid parameters"))
            .getMessage());
    assertEquals(
        "Graphite answer is not a JSON array of targets: {\"a\":1}",
        assertThrows(MetricProviderException.class, () -> GraphiteRender.values(200, "{\"a\":1}"))
            .getMessage());
    assertEquals(
        "error unmarshaling data point: [1]",
        assertThrows(
                MetricProviderException.class,
                () -> GraphiteRender.values(200, "[{\"datapoints\":[[1]]}]"))
            .getMessage());
    assertEquals(
        "error unmarshaling value: abc",
        assertThrows(
                MetricProviderException.class,
                () -> GraphiteRender.values(200, "[{\"datapoints\":[[\"abc\",1]]}]"))
            .getMessage());
    assertThrows(MetricProviderException.class, () -> GraphiteRender.values(200, "<html>"));
  }

  @Test
  void sixDecimalsRoundLikeGo() {
    assertEquals(
        "[0.123457,1000000.000000,-2.500000]", GraphiteRender.text(List.of(0.1234567, 1e6, -2.5)));
  }
}
