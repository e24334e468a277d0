package io.rollgate.controller.analysis.provider.cloudwatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.MessageData;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;

class CloudWatchQueriesTest {

  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  @SuppressWarnings("unchecked")
  static Map<String, Object> config(String json) throws Exception {
    return new ObjectMapper().readValue(json, Map.class);
  }

  @Test
  void expressionsAndMetricStatsBecomeTheRequestOverTheInterval() throws Exception {
    GetMetricDataRequest r =
        CloudWatchQueries.request(
            config(
                "{\"interval\":\"15m\",\"metricDataQueries\":["
                    + "{\"id\":\"rate\",\"expression\":\"errors / requests\",\"label\":\"error rate\"},"
                    + "{\"id\":\"errors\",\"returnData\":false,\"metricStat\":{\"metric\":{\"namespace\":\"app\","
                    + "\"metricName\":\"5xx\",\"dimensions\":[{\"name\":\"Service\",\"value\":\"web\"}]},"
                    + "\"period\":\"300\",\"stat\":\"Sum\",\"unit\":\"Count\"}},"
                    + "{\"id\":\"requests\",\"period\":60,\"metricStat\":{\"metric\":{\"metricName\":\"requests\"},"
                    + "\"period\":60,\"stat\":\"Sum\"}}]}"),
            NOW);
    assertEquals(NOW.minusSeconds(900), r.startTime());
    assertEquals(NOW, r.endTime());
    List<MetricDataQuery> q = r.metricDataQueries();
    assertEquals(3, q.size());
    assertEquals("rate", q.get(0).id());
    assertEquals("errors / requests", q.get(0).expression());
    assertEquals("error rate", q.get(0).label());
    assertNull(q.get(0).metricStat());
    assertEquals(false, q.get(1).returnData());
    assertEquals("app", q.get(1).metricStat().metric().namespace());
    assertEquals("5xx", q.get(1).metricStat().metric().metricName());
    assertEquals("Service", q.get(1).metricStat().metric().dimensions().get(0).name());
    assertEquals("web", q.get(1).metricStat().metric().dimensions().get(0).value());
    assertEquals(300, q.get(1).metricStat().period());
    assertEquals("Sum", q.get(1).metricStat().stat());
    assertEquals("Count", q.get(1).metricStat().unitAsString());
    assertEquals(60, q.get(2).period());
    assertNull(q.get(2).metricStat().unitAsString());
  }

  @Test
  void intervalDefaultsToFiveMinutesAndMustBeAGoDuration() throws Exception {
    GetMetricDataRequest r =
        CloudWatchQueries.request(
            config("{\"metricDataQueries\":[{\"id\":\"a\",\"expression\":\"1\"}]}"), NOW);
    assertEquals(NOW.minusSeconds(300), r.startTime());
    assertEquals(
        "time: invalid duration \"five minutes\"",
        assertThrows(
                MetricProviderException.class,
                () -> CloudWatchQueries.request(config("{\"interval\":\"five minutes\"}"), NOW))
            .getMessage());
  }

  @Test
  void wrongJsonTypesNameTheField() throws Exception {
    assertEquals(
        "provider.cloudWatch.metricDataQueries must be a list",
        assertThrows(
                MetricProviderException.class,
                () -> CloudWatchQueries.request(config("{\"metricDataQueries\":\"all\"}"), NOW))
            .getMessage());
    assertEquals(
        "provider.cloudWatch.metricDataQueries[0].metricStat must be an object",
        assertThrows(
                MetricProviderException.class,
                () ->
                    CloudWatchQueries.request(
                        config("{\"metricDataQueries\":[{\"metricStat\":[1]}]}"), NOW))
            .getMessage());
  }

  @Test
  void periodIsReadLikeAnIntOrString() {
    assertEquals(300, CloudWatchQueries.intValue("300"));
    assertEquals(60, CloudWatchQueries.intValue(60));
    assertEquals(0, CloudWatchQueries.intValue("5m"));
  }

  @Test
  void answerBecomesOneEntryPerQueryId() {
    GetMetricDataResponse response =
        GetMetricDataResponse.builder()
            .metricDataResults(
                MetricDataResult.builder()
                    .id("rate")
                    .label("error rate")
                    .statusCode("Complete")
                    .timestamps(
                        Instant.parse("2026-01-01T11:59:00Z"),
                        Instant.parse("2026-01-01T11:58:00Z"))
                    .values(0.5, 1000000.0)
                    .build(),
                MetricDataResult.builder().id("none").statusCode("Complete").build())
            .messages(
                MessageData.builder().code("MaxQueryTimeRangeExceed").value("too long").build())
            .build();
    List<Map<String, Object>> value = CloudWatchQueries.value(response);
    assertEquals(2, value.size());
    assertEquals("rate", value.get(0).get("Id"));
    assertEquals("error rate", value.get(0).get("Label"));
    assertEquals("Complete", value.get(0).get("StatusCode"));
    assertEquals(List.of(0.5, 1000000.0), value.get(0).get("Values"));
    assertEquals(
        Instant.parse("2026-01-01T11:59:00Z"), ((List<?>) value.get(0).get("Timestamps")).get(0));
    assertEquals(List.of(), value.get(1).get("Values"));
    assertEquals("[[0.5 1e+06] []]", CloudWatchQueries.text(response));
    assertEquals(
        Map.of("messages", "[{Code:MaxQueryTimeRangeExceed Value:too long}]"),
        CloudWatchQueries.metadata(response));
    assertEquals(Map.of(), CloudWatchQueries.metadata(GetMetricDataResponse.builder().build()));
  }
}
