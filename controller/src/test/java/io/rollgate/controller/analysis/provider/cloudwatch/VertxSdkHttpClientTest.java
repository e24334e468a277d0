package io.rollgate.controller.analysis.provider.cloudwatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.aws.VertxSdkHttpClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchAsyncClient;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;

@ExtendWith(VertxExtension.class)
@Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
class VertxSdkHttpClientTest {

  static final String ANSWER =
      "<GetMetricDataResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\"><GetMetricDataResult>"
          + "<MetricDataResults><member><Id>errors</Id><Label>5xx</Label><StatusCode>Complete</StatusCode>"
          + "<Timestamps><member>2026-01-01T11:59:00Z</member></Timestamps><Values><member>0.5</member></Values>"
          + "</member></MetricDataResults><Messages/></GetMetricDataResult>"
          + "<ResponseMetadata><RequestId>r1</RequestId></ResponseMetadata></GetMetricDataResponse>";

  static CloudWatchAsyncClient client(Vertx vertx, int port) {
    return CloudWatchAsyncClient.builder()
        .httpClient(new VertxSdkHttpClient(new MetricHttpClient(vertx), Duration.ofSeconds(5)))
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "secret")))
        .overrideConfiguration(
            o -> o.retryStrategy(RetryMode.STANDARD).apiCallTimeout(Duration.ofSeconds(20)))
        .build();
  }

  @Test
  void signedRequestGoesThroughVertxAndTheAnswerIsParsed(Vertx vertx, VertxTestContext test) {
    List<String> seen = new CopyOnWriteArrayList<>();
    vertx
        .createHttpServer()
        .requestHandler(
            req ->
                req.body()
                    .onSuccess(
                        body -> {
                          seen.add(req.method() + " " + req.path());
                          seen.add(req.getHeader("Authorization"));
                          seen.add(body.toString());
                          req.response().putHeader("Content-Type", "text/xml").end(ANSWER);
                        }))
        .listen(0, "127.0.0.1")
        .compose(
            server -> {
              CloudWatchAsyncClient client = client(vertx, server.actualPort());
              return Future.fromCompletionStage(
                  client.getMetricData(
                      CloudWatchQueries.request(
                          java.util.Map.of(
                              "metricDataQueries",
                              List.of(
                                  java.util.Map.of(
                                      "id", "errors", "expression", "SUM(METRICS())"))),
                          Instant.parse("2026-01-01T12:00:00Z"))));
            })
        .onComplete(
            test.succeeding(
                response ->
                    test.verify(
                        () -> {
                          GetMetricDataResponse r = response;
                          assertEquals("[[0.5]]", CloudWatchQueries.text(r));
                          assertEquals("errors", CloudWatchQueries.value(r).get(0).get("Id"));
                          assertEquals("POST /", seen.get(0));
                          assertTrue(
                              seen.get(1).startsWith("AWS4-HMAC-SHA256 Credential=AKID/"),
                              seen.get(1));
                          assertTrue(seen.get(2).contains("Action=GetMetricData"), seen.get(2));
                          assertTrue(
                              seen.get(2).contains("MetricDataQueries.member.1.Id=errors"),
                              seen.get(2));
                          test.completeNow();
                        })));
  }

  @Test
  void serviceErrorsCarryTheServicesMessage(Vertx vertx, VertxTestContext test) {
    vertx
        .createHttpServer()
        .requestHandler(
            req ->
                req.response()
                    .setStatusCode(400)
                    .putHeader("Content-Type", "text/xml")
                    .end(
                        "<ErrorResponse><Error><Type>Sender</Type><Code>ValidationError</Code>"
                            + "<Message>The value NoSuchStat for parameter Stat is not valid.</Message></Error>"
                            + "<RequestId>r2</RequestId></ErrorResponse>"))
        .listen(0, "127.0.0.1")
        .compose(
            server ->
                Future.fromCompletionStage(
                    client(vertx, server.actualPort())
                        .getMetricData(
                            b ->
                                b.startTime(Instant.EPOCH).endTime(Instant.EPOCH.plusSeconds(60)))))
        .onComplete(
            test.failing(
                e ->
                    test.verify(
                        () -> {
                          assertTrue(
                              e.getMessage()
                                  .contains(
                                      "The value NoSuchStat for parameter Stat is not valid."),
                              e.getMessage());
                          test.completeNow();
                        })));
  }
}
