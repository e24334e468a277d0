package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.plugin.PluginRegistry;
import io.rollgate.webhook.tls.CertBundle;
import io.rollgate.webhook.tls.CertificateIssuer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Seeded fuzzing of the admission path: valid reviews of every kind the webhook decides (Rollout
 * create and update, AnalysisTemplate, ClusterAnalysisTemplate, RolloutPolicy, the plugin
 * ConfigMap) are mutated byte by byte and structurally, and each mutant must get an answer: a 400
 * naming the problem, or a decision (allowed, warned, denied, ignored) whose review can be written.
 * An exception out of the handler, an "error" verdict, or an ERROR log line is a defect, reported
 * with the seed and iteration that reproduce it.
 *
 * <p>{@code -Dfuzz.iterations=N} (default 3000 per pass) and {@code -Dfuzz.seed=S} (default fixed,
 * so runs repeat) run it longer or elsewhere; the HTTP pass sends a tenth as many through the HTTPS
 * server.
 */
class AdmissionFuzzTest {

  private static final long SEED = Long.getLong("fuzz.seed", 20261202L);
  private static final int ITERATIONS = Integer.getInteger("fuzz.iterations", 3000);
  private static final Set<String> VERDICTS =
      Set.of("allowed", "warned", "denied", "ignored", "patched");

  private static final String[] ODD_STRINGS = {
    "",
    " ",
    "-1",
    "0",
    "1e309",
    "NaN",
    "9223372036854775808",
    "25%",
    "200%",
    "-5%",
    "1.5",
    "abc",
    "\u0000",
    "\uD83D\uDE80",
    "\uFFFD",
    "a".repeat(70_000),
    "../../etc",
    "${x}",
    "{{.x}}",
    "true",
    "null",
    "0x10",
    "P1D",
    "1h2m3s",
    "-1s",
    "99999999999h",
    "Infinity"
  };

  private static List<byte[]> corpus() throws Exception {
    List<ObjectNode> reviews = new ArrayList<>();
    reviews.add(Reviews.review("CREATE", Reviews.validRollout()));
    ObjectNode update = Reviews.review("UPDATE", Reviews.validRollout());
    ObjectNode old = Reviews.validRollout();
    old.with("spec").put("replicas", 7);
    update.with("request").set("oldObject", old);
    reviews.add(update);
    String template =
        "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"metadata\":{\"name\":\"t\"},\"spec\":{\"args\":[{\"name\":\"svc\"}],"
            + "\"metrics\":[{\"name\":\"rate\",\"interval\":\"1m\",\"count\":3,\"failureLimit\":1,"
            + "\"successCondition\":\"result[0] >= 0.95\",\"provider\":{\"prometheus\":{\"address\":\"http://p:9090\","
            + "\"query\":\"sum(rate(x{svc='{{args.svc}}'}[5m]))\"}}},{\"name\":\"job\",\"provider\":{\"web\":{"
            + "\"url\":\"http://h/{{args.svc}}\",\"jsonPath\":\"{$.ok}\"}}}]}}";
    for (String kind : new String[] {"AnalysisTemplate", "ClusterAnalysisTemplate"}) {
      ObjectNode r = Reviews.review("CREATE", AdmissionReviews.mapper().readTree(template));
      r.with("request").with("kind").put("kind", kind);
      reviews.add(r);
    }
    ObjectNode policy =
        Reviews.review(
            "CREATE",
            AdmissionReviews.mapper()
                .readTree(
                    "{\"apiVersion\":\"rollgate.io/v1alpha1\",\"kind\":\"RolloutPolicy\",\"metadata\":{\"name\":\"p\"},"
                        + "\"spec\":{\"enforcementAction\":\"deny\",\"namespaceSelector\":{\"matchLabels\":"
                        + "{\"env\":\"prod\"}},\"rules\":{\"maxReplicas\":10}}}"));
    policy.with("request").with("kind").put("group", "rollgate.io").put("kind", "RolloutPolicy");
    reviews.add(policy);
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    config.put("apiVersion", "v1").put("kind", "ConfigMap");
    config.with("metadata").put("name", PluginRegistry.CONFIG_MAP_NAME);
    config
        .with("data")
        .put("trafficRouterPlugins", "- name: acme/router\n  location: file://./router\n")
        .put(
            "stepPlugins",
            "- name: acme/ci\n  location: https://example.com/ci\n  sha256: "
                + "a".repeat(64)
                + "\n");
    ObjectNode cm = Reviews.review("UPDATE", config);
    cm.with("request").with("kind").put("group", "").put("version", "v1").put("kind", "ConfigMap");
    cm.with("request").put("name", PluginRegistry.CONFIG_MAP_NAME);
    reviews.add(cm);
    List<byte[]> out = new ArrayList<>();
    for (ObjectNode r : reviews) {
      out.add(r.toString().getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  /** One mutant and how it was made, for the failure message. */
  private record Mutant(byte[] body, String how) {}

  private static Mutant mutate(byte[] seed, Random rnd) throws Exception {
    int op = rnd.nextInt(10);
    if (op < 4) {
      return mutateBytes(seed, rnd);
    }
    JsonNode tree = AdmissionReviews.mapper().readTree(seed);
    List<JsonNode> containers = new ArrayList<>();
    collect(tree.get("request"), containers);
    JsonNode target = containers.get(rnd.nextInt(containers.size()));
    String how;
    if (target instanceof ObjectNode obj && obj.size() > 0) {
      List<String> names = new ArrayList<>();
      obj.fieldNames().forEachRemaining(names::add);
      String name = names.get(rnd.nextInt(names.size()));
      switch (rnd.nextInt(4)) {
        case 0 -> {
          obj.remove(name);
          how = "removed " + name;
        }
        case 1 -> {
          obj.set("x" + rnd.nextInt(1000), randomValue(rnd, 0));
          how = "added an unknown field next to " + name;
        }
        default -> {
          JsonNode v = randomValue(rnd, 0);
          obj.set(name, v);
          how = "set " + name + " to " + abbreviate(v);
        }
      }
    } else if (target instanceof ArrayNode arr && arr.size() > 0) {
      int i = rnd.nextInt(arr.size());
      if (rnd.nextBoolean()) {
        arr.set(i, randomValue(rnd, 0));
        how = "replaced element " + i;
      } else {
        arr.add(arr.get(i).deepCopy());
        how = "repeated element " + i;
      }
    } else {
      how = "unchanged";
    }
    return new Mutant(AdmissionReviews.mapper().writeValueAsBytes(tree), how);
  }

  private static Mutant mutateBytes(byte[] seed, Random rnd) {
    byte[] b = seed.clone();
    int at = rnd.nextInt(b.length);
    switch (rnd.nextInt(5)) {
      case 0 -> {
        b[at] = (byte) rnd.nextInt(256);
        return new Mutant(b, "byte " + at + " set");
      }
      case 1 -> {
        int len = 1 + rnd.nextInt(Math.min(64, b.length - at));
        byte[] out = new byte[b.length - len];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(b, at + len, out, at, b.length - at - len);
        return new Mutant(out, len + " bytes deleted at " + at);
      }
      case 2 -> {
        byte[] ins = new byte[1 + rnd.nextInt(4)];
        rnd.nextBytes(ins);
        byte[] out = new byte[b.length + ins.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(ins, 0, out, at, ins.length);
        System.arraycopy(b, at, out, at + ins.length, b.length - at);
        return new Mutant(out, ins.length + " random bytes inserted at " + at);
      }
      case 3 -> {
        byte[] out = new byte[at];
        System.arraycopy(b, 0, out, 0, at);
        return new Mutant(out, "cut at " + at);
      }
      default -> {
        // A key given twice: repeat the member that starts at the first quote after 'at'.
        String s = new String(b, StandardCharsets.UTF_8);
        int q = s.indexOf("\":", at);
        int start = q < 0 ? -1 : s.lastIndexOf(",\"", q);
        if (start < 0) {
          return new Mutant(b, "unchanged");
        }
        String dup = s.substring(start, q + 2) + "null";
        return new Mutant(
            (s.substring(0, start) + dup + s.substring(start)).getBytes(StandardCharsets.UTF_8),
            "member repeated at " + start);
      }
    }
  }

  private static void collect(JsonNode n, List<JsonNode> out) {
    if (n == null || !n.isContainerNode()) {
      return;
    }
    out.add(n);
    for (Iterator<JsonNode> it = n.elements(); it.hasNext(); ) {
      collect(it.next(), out);
    }
  }

  private static JsonNode randomValue(Random rnd, int depth) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    return switch (rnd.nextInt(depth > 3 ? 6 : 8)) {
      case 0 -> f.nullNode();
      case 1 -> f.booleanNode(rnd.nextBoolean());
      case 2 ->
          f.numberNode(
              new long[] {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, 101}
                  [rnd.nextInt(7)]);
      case 3 -> f.numberNode(new double[] {0.5, -0.0, 1e308, 2.5}[rnd.nextInt(4)]);
      case 4, 5 -> f.textNode(ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)]);
      case 6 -> {
        ArrayNode a = f.arrayNode();
        for (int i = rnd.nextInt(3); i > 0; i--) {
          a.add(randomValue(rnd, depth + 1));
        }
        yield a;
      }
      default -> {
        ObjectNode o = f.objectNode();
        for (int i = rnd.nextInt(3); i > 0; i--) {
          o.set(
              new String[] {"name", "value", "weight", "duration", "x"}[rnd.nextInt(5)],
              randomValue(rnd, depth + 1));
        }
        yield o;
      }
    };
  }

  private static String abbreviate(JsonNode v) {
    String s = v.toString();
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }

  @Test
  void mutatedReviewsAlwaysGetAnAnswer() throws Exception {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    logs.start();
    root.addAppender(logs);
    List<byte[]> corpus = corpus();
    AdmissionHandler handler = new AdmissionHandler(ClusterView.NONE);
    Random rnd = new Random(SEED);
    List<String> defects = new ArrayList<>();
    int refused = 0;
    int decided = 0;
    try {
      for (int i = 0; i < ITERATIONS && defects.size() < 5; i++) {
        Mutant m = mutate(corpus.get(i % corpus.size()), rnd);
        AdmissionRequest request;
        try {
          request = AdmissionReviews.parse(m.body());
        } catch (BadReviewException e) {
          refused++;
          if (e.getMessage() == null || e.getMessage().isBlank()) {
            defects.add("iteration " + i + " (" + m.how() + "): 400 without a message");
          }
          continue;
        }
        try {
          for (AdmissionDecision d :
              new AdmissionDecision[] {handler.validate(request), handler.mutate(request)}) {
            if (!VERDICTS.contains(d.verdict())) {
              defects.add("iteration " + i + " (" + m.how() + "): verdict " + d.verdict());
            }
            JsonNode answer =
                AdmissionReviews.mapper()
                    .readTree(AdmissionReviews.mapper().writeValueAsBytes(d.review()));
            if (!answer.at("/response/allowed").isBoolean()) {
              defects.add(
                  "iteration "
                      + i
                      + " ("
                      + m.how()
                      + "): answer without response.allowed: "
                      + answer);
            }
            if ("denied".equals(d.verdict())
                && answer.at("/response/status/message").asText().isBlank()) {
              defects.add("iteration " + i + " (" + m.how() + "): denied without a message");
            }
          }
          decided++;
        } catch (Throwable e) {
          defects.add("iteration " + i + " (" + m.how() + "): " + e);
        }
      }
    } finally {
      root.detachAppender(logs);
    }
    System.out.printf(
        "admission fuzz: seed %d, %d mutants: %d refused as bad reviews, %d decided%n",
        SEED, refused + decided, refused, decided);
    assertEquals(List.of(), defects, "seed " + SEED);
    assertEquals(
        List.of(),
        logs.list.stream()
            .filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
            .map(ILoggingEvent::toString)
            .toList());
    assertTrue(refused > 0 && decided > 0, "both kinds of mutant were produced");
    // The handler keeps no state from bad input: the corpus is decided as before.
    for (byte[] valid : corpus) {
      String verdict = handler.validate(AdmissionReviews.parse(valid)).verdict();
      assertTrue(verdict.equals("allowed") || verdict.equals("warned"), verdict);
    }
    report(
        "hostile AdmissionReviews",
        (refused + decided)
            + " mutants (byte and structure) of valid reviews of 6 kinds, seed "
            + SEED,
        "each refused with a 400 naming the problem or decided with a writable review; no exception, no ERROR log",
        "passed; " + refused + " refused, " + decided + " decided, 0 defects");
  }

  /** A row of the fault report (docs/reliability.md), in this module's target directory. */
  static synchronized void report(String fault, String injected, String asserted, String result)
      throws Exception {
    java.nio.file.Path file = java.nio.file.Path.of("target", "fault-report.tsv");
    java.nio.file.Files.createDirectories(file.getParent());
    java.nio.file.Files.writeString(
        file,
        String.join("\t", fault, injected, asserted, result) + "\n",
        StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
  }

  @Test
  void mutantsThroughTheHttpsServerGetNoServerError() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      CertBundle bundle =
          new CertificateIssuer(Clock.systemUTC())
              .issue(
                  "localhost",
                  List.of("localhost", "127.0.0.1"),
                  Duration.ofDays(10),
                  Duration.ofDays(5));
      WebhookMetrics metrics = new WebhookMetrics();
      WebhookServer[] server = new WebhookServer[1];
      server[0] =
          new WebhookServer(
              vertx,
              AdmissionRouter.create(
                  vertx,
                  metrics,
                  true,
                  AdmissionRouter.DEFAULT_BODY_LIMIT,
                  () -> server[0].ready()),
              "127.0.0.1",
              0);
      int port =
          server[0]
              .start(bundle)
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      WebClient client =
          WebClient.create(
              vertx,
              new WebClientOptions()
                  .setSsl(true)
                  .setTrustOptions(
                      new PemTrustOptions().addCertValue(Buffer.buffer(bundle.caCrt())))
                  .setDefaultHost("127.0.0.1")
                  .setDefaultPort(port));
      List<byte[]> corpus = corpus();
      Random rnd = new Random(SEED + 1);
      int n = Math.max(50, ITERATIONS / 10);
      List<String> defects = new ArrayList<>();
      for (int i = 0; i < n && defects.size() < 5; i++) {
        Mutant m = mutate(corpus.get(i % corpus.size()), rnd);
        String path = rnd.nextBoolean() ? "/validate" : "/mutate";
        HttpResponse<Buffer> r =
            client
                .post(path)
                .putHeader("Content-Type", "application/json")
                .timeout(20_000)
                .sendBuffer(Buffer.buffer(m.body()))
                .toCompletionStage()
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        JsonNode answer = AdmissionReviews.mapper().readTree(r.bodyAsString());
        boolean ok =
            r.statusCode() == 200 && answer.at("/response/allowed").isBoolean()
                || r.statusCode() == 400
                    && "Status".equals(answer.path("kind").asText())
                    && !answer.path("message").asText().isBlank();
        if (!ok) {
          defects.add(
              "request "
                  + i
                  + " to "
                  + path
                  + " ("
                  + m.how()
                  + "): "
                  + r.statusCode()
                  + " "
                  + r.bodyAsString());
        }
      }
      assertEquals(List.of(), defects, "seed " + (SEED + 1));
      assertFalse(
          metrics.scrape().contains("verdict=\"error\""), "no review ended in an internal error");
      report(
          "hostile AdmissionReviews over HTTPS",
          n + " mutants posted to /validate and /mutate, seed " + (SEED + 1),
          "every answer a 200 AdmissionReview or a 400 Status with a message; no internal-error verdict",
          "passed; 0 defects");
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
