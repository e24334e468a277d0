package io.rollgate.plugin.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SelfSignedCertificate;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An endpoint plugin served over HTTPS from PEM files, without a cookie. */
class PluginServerTlsTest {

  @Test
  void servesOverHttpsWithPemFiles() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
      PluginServer server =
          PluginServer.start(
                  vertx,
                  PluginDispatcher.of(new PluginServerTest.EchoStep()),
                  new PluginServer.Options(
                      "127.0.0.1", 0, null, cert.certificatePath(), cert.privateKeyPath()))
              .toCompletionStage()
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      assertEquals("https://127.0.0.1:" + server.port(), server.baseUrl());
      var client =
          vertx.createHttpClient(
              new HttpClientOptions().setSsl(true).setTrustAll(true).setVerifyHost(false));
      Buffer body =
          client
              .request(
                  new RequestOptions()
                      .setMethod(HttpMethod.POST)
                      .setHost("127.0.0.1")
                      .setPort(server.port())
                      .setURI("/v1/info"))
              .compose(req -> req.send(Buffer.buffer("{}")))
              .compose(
                  resp -> {
                    assertEquals(200, resp.statusCode());
                    return resp.body();
                  })
              .toCompletionStage()
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      assertTrue(body.toString().contains("\"type\":\"EchoStep\""), body.toString());
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
