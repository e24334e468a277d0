package io.rollgate.controller.analysis.provider.influxdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricProviderConfig;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
class InfluxdbMetricProviderTest {

  static final String CSV =
      "#datatype,string,long,double\r\n#group,false,false,false\r\n#default,_result,,\r\n,result,table,_value\r\n"
          + ",,0,0.25\r\n,,0,1e-05\r\n\r\n";

  static Metric metric(Map<String, Object> influxdb) {
    MetricProviderConfig provider = new MetricProviderConfig();
    provider.getAdditionalProperties().put("influxdb", influxdb);
    Metric m = new Metric();
    m.setName("m");
    m.setProvider(provider);
    return m;
  }

  static Secret secret(String name, Map<String, String> data) {
    Map<String, String> encoded = new java.util.HashMap<>();
    data.forEach((k, v) -> encoded.put(k, Base64.getEncoder().encodeToString(v.getBytes())));
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withData(encoded)
        .build();
  }

  static MeasurementContext ctx(Map<String, Object> influxdb) {
    return new MeasurementContext(
        new AnalysisRun(), metric(influxdb), Instant.parse("2026-01-01T00:00:00Z"), Set.of());
  }

  @Test
  void postsTheFluxQueryWithTokenAndOrgAndAnswersEveryValue(Vertx vertx, VertxTestContext test) {
    List<String> seen = new CopyOnWriteArrayList<>();
    List<String> secretsRead = new ArrayList<>();
    vertx
        .createHttpServer()
        .requestHandler(
            req ->
                req.body()
                    .onSuccess(
                        b -> {
                          seen.add(
                              req.method()
                                  + " "
                                  + req.uri()
                                  + " | "
                                  + req.getHeader("Authorization")
                                  + " | "
                                  + req.getHeader("Content-Type")
                                  + " | "
                                  + b);
                          req.response()
                              .putHeader("Content-Type", "text/csv; charset=utf-8")
                              .end(CSV);
                        }))
        .listen(0, "127.0.0.1")
        .compose(
            server -> {
              InfluxdbMetricProvider provider =
                  new InfluxdbMetricProvider(
                      new MetricHttpClient(vertx),
                      (ns, name) -> {
                        secretsRead.add(ns + "/" + name);
                        return Future.succeededFuture(
                            secret(
                                name,
                                Map.of(
                                    "address", "http://127.0.0.1:" + server.actualPort() + "/",
                                    "authToken", "tok:en",
                                    "org", "my org")));
                      },
                      "argo-rollouts");
              return provider.run(
                  ctx(Map.of("profile", "influx-prod", "query", "from(bucket: \"b\")")));
            })
        .onComplete(
            test.succeeding(
                result ->
                    test.verify(
                        () -> {
                          ProviderResult.Value v = (ProviderResult.Value) result;
                          assertEquals(List.of(0.25, 1e-5), v.value());
                          assertEquals("[0.25 1e-05]", v.text());
                          assertEquals(List.of("argo-rollouts/influx-prod"), secretsRead);
                          assertEquals(1, seen.size());
                          String[] parts = seen.get(0).split(" \\| ");
                          assertEquals("POST /api/v2/query?org=my+org", parts[0]);
                          assertEquals("Token tok:en", parts[1]);
                          assertEquals("application/json", parts[2]);
                          JsonObject body = new JsonObject(parts[3]);
                          assertEquals("from(bucket: \"b\")", body.getString("query"));
                          assertEquals("flux", body.getString("type"));
                          assertEquals(
                              new JsonObject(
                                  "{\"annotations\":[\"datatype\",\"group\",\"default\"],\"delimiter\":\",\",\"header\":true}"),
                              body.getJsonObject("dialect"));
                          test.completeNow();
                        })));
  }

  @Test
  void missingOrIncompleteSecretIsAnError(Vertx vertx, VertxTestContext test) {
    MetricHttpClient http = new MetricHttpClient(vertx);
    InfluxdbMetricProvider none =
        new InfluxdbMetricProvider(http, (ns, name) -> Future.succeededFuture(), "ns");
    InfluxdbMetricProvider partial =
        new InfluxdbMetricProvider(
            http,
            (ns, name) -> Future.succeededFuture(secret(name, Map.of("address", "http://x"))),
            "ns");
    none.run(ctx(Map.of("query", "q")))
        .onComplete(
            test.failing(
                e ->
                    test.verify(
                        () -> assertEquals("secrets \"influxdb\" not found", e.getMessage()))))
        .recover(e -> partial.run(ctx(Map.of("query", "q"))))
        .onComplete(
            test.failing(
                e ->
                    test.verify(
                        () -> {
                          assertEquals("authToken, org, or address not found", e.getMessage());
                          test.completeNow();
                        })));
  }

  @Test
  void emptyAnswerAndRejectedQueriesAreErrors(Vertx vertx, VertxTestContext test) {
    Future<HttpServer> started =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  if (req.uri().contains("org=empty")) {
                    req.response().putHeader("Content-Type", "text/csv").end("\r\n");
                  } else {
                    req.response()
                        .setStatusCode(500)
                        .putHeader("Content-Type", "application/json")
                        .putHeader(
                            "X-Influxdb-Error", "type error 1:1-1:5: undefined identifier \"frm\"")
                        .end(
                            "{\"error\":\"type error 1:1-1:5: undefined identifier \\\"frm\\\"\"}");
                  }
                })
            .listen(0, "127.0.0.1");
    started
        .compose(server -> provider(vertx, server, "empty").run(ctx(Map.of("query", "q"))))
        .onComplete(
            test.failing(
                e ->
                    test.verify(
                        () -> assertEquals("no results returned from flux query", e.getMessage()))))
        .recover(e -> provider(vertx, started.result(), "bad").run(ctx(Map.of("query", "frm()"))))
        .onComplete(
            test.failing(
                e ->
                    test.verify(
                        () -> {
                          assertEquals(
                              "500 Internal Server Error: type error 1:1-1:5: undefined identifier \"frm\"",
                              e.getMessage());
                          test.completeNow();
                        })));
  }

  static InfluxdbMetricProvider provider(Vertx vertx, HttpServer server, String org) {
    return new InfluxdbMetricProvider(
        new MetricHttpClient(vertx),
        (ns, name) ->
            Future.succeededFuture(
                secret(
                    name,
                    Map.of(
                        "address",
                        "http://127.0.0.1:" + server.actualPort(),
                        "authToken",
                        "t",
                        "org",
                        org))),
        "ns");
  }

  @Test
  void httpErrorMessagesFollowTheClientLibrary() {
    assertEquals(
        "invalid: bad query",
        InfluxdbMetricProvider.FluxQuery.httpError(
            400,
            "Bad Request",
            "application/json",
            null,
            "{\"code\":\"invalid\",\"message\":\"bad query\"}"));
    assertEquals(
        "401 Unauthorized: authorization failed",
        InfluxdbMetricProvider.FluxQuery.httpError(
            401, "Unauthorized", "text/plain", null, "authorization failed"));
    assertEquals(
        "unavailable: service temporarily unavailable",
        InfluxdbMetricProvider.FluxQuery.httpError(
            503, "Service Unavailable", "application/json", null, "{}"));
    assertEquals(
        "Unexpected status code 502",
        InfluxdbMetricProvider.FluxQuery.httpError(502, "Bad Gateway", null, null, ""));
    assertTrue(
        InfluxdbMetricProvider.FluxQuery.url("https://influx.example/base", "o")
            .equals("https://influx.example/base/api/v2/query?org=o"));
  }
}
