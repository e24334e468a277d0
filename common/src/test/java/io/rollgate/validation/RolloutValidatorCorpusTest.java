package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.testing.Corpus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Rollout validation gives exactly the recorded errors, in the recorded order, for a corpus of
 * Rollouts drawn by a seeded generator ({@code rollouts-corpus.jsonl}; see {@link Corpus} for how
 * it is recorded).
 */
class RolloutValidatorCorpusTest {

  private static final String CORPUS = "validation/rollouts-corpus.jsonl";

  /**
   * Rollouts drawn; those kept are the first {@link #PLAIN} and every later one that shows an error
   * not seen before (see {@link Corpus#shape}).
   */
  private static final int DRAWN = 20_000;

  private static final int PLAIN = 250;
  private static final ObjectMapper JSON = Corpus.JSON;
  private static final Object[] FENCEPOSTS = {
    null,
    0,
    1,
    -1,
    "25%",
    "0",
    "0%",
    "1",
    "x",
    "",
    "%",
    "1%%",
    "2147483647",
    "2147483648",
    "99999999999%",
    "0000000001",
    "000000000",
    "123456789%",
    "1234567890%",
    "2.5%",
    "-1%"
  };
  private static final Object[] PAUSES = {
    null,
    "30s",
    10,
    0,
    -5,
    "-1s",
    "abc",
    "1m30s",
    "1.5h",
    "45",
    "",
    "0",
    "99999999999999999999",
    "9999999999h"
  };
  private static final String[] SERVICES = {null, "", "stable", "canary"};

  @Test
  @DisabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void reportsTheRecordedErrors() {
    List<JsonNode> corpus = Corpus.read(CORPUS);
    int withErrors = 0;
    for (JsonNode line : corpus) {
      JsonNode rollout = line.get("rollout");
      assertEquals(line.get("outcome"), outcome(rollout), rollout::toString);
      if (!line.get("outcome").isEmpty()) {
        withErrors++;
      }
    }
    assertTrue(
        withErrors > corpus.size() / 20 && withErrors < corpus.size(),
        "valid and invalid Rollouts: " + withErrors);
  }

  @Test
  @EnabledIfSystemProperty(named = Corpus.WRITE, matches = "true")
  void recordsTheCorpus() {
    Random random = new Random(37);
    Set<String> seen = new HashSet<>();
    List<ObjectNode> lines = new ArrayList<>();
    for (int i = 0; i < DRAWN; i++) {
      ObjectNode rollout = rollout(random);
      JsonNode outcome = outcome(rollout);
      boolean fresh = false;
      for (JsonNode error : outcome) {
        fresh |= seen.add(Corpus.shape(error.asText()));
      }
      if (fresh || outcome.has("thrown") || i < PLAIN) {
        lines.add(
            JSON.createObjectNode().<ObjectNode>set("rollout", rollout).set("outcome", outcome));
      }
    }
    Corpus.write(CORPUS, lines);
  }

  private static JsonNode outcome(JsonNode json) {
    Rollout rollout = ModelJson.fromJson(json.toString(), Rollout.class);
    return Corpus.outcome(errors -> errors.addAll(RolloutValidator.validate(rollout)));
  }

  private static ObjectNode rollout(Random random) {
    ObjectNode root =
        JSON.createObjectNode().put("apiVersion", "argoproj.io/v1alpha1").put("kind", "Rollout");
    root.putObject("metadata").put("name", "web");
    if (random.nextInt(40) == 0) {
      return root;
    }
    ObjectNode spec = root.putObject("spec");
    maybeInt(random, spec, "replicas", 3, -1);
    maybeInt(random, spec, "minReadySeconds", 5, -1, 700);
    maybeInt(random, spec, "revisionHistoryLimit", 2, -1, 10);
    maybeInt(random, spec, "progressDeadlineSeconds", 600, -1, 3);
    if (random.nextInt(30) == 0) {
      spec.putObject("workloadRef").put("kind", "Deployment").put("name", "web");
    }
    if (random.nextInt(20) != 0) {
      ObjectNode selector = spec.putObject("selector");
      if (random.nextInt(15) != 0) {
        selector.putObject("matchLabels").put("app", random.nextInt(15) == 0 ? "other" : "web");
      }
      if (random.nextInt(5) == 0) {
        ObjectNode e = selector.putArray("matchExpressions").addObject().put("key", "tier");
        e.put("operator", pick(random, "In", "NotIn", "Exists", "DoesNotExist", "Bad"));
        if (random.nextBoolean()) {
          e.putArray("values").add("front");
        }
      }
    }
    if (random.nextInt(20) != 0) {
      ObjectNode template = spec.putObject("template");
      ObjectNode meta = template.putObject("metadata");
      meta.putObject("labels").put("app", "web").put("tier", "front");
      if (random.nextInt(4) == 0) {
        meta.putObject("annotations").put(pick(random, "a/b", "-x", "example.com/y"), "v");
      }
      ObjectNode podSpec = template.putObject("spec");
      if (random.nextInt(20) != 0) {
        ObjectNode c =
            podSpec
                .putArray("containers")
                .addObject()
                .put("name", pick(random, "web", "Web"))
                .put("image", "nginx");
        if (random.nextBoolean()) {
          c.putArray("ports")
              .addObject()
              .put("name", pick(random, "http", "a--b"))
              .put("containerPort", 8080);
        }
        if (random.nextBoolean()) {
          ObjectNode res = c.putObject("resources");
          res.putObject("requests")
              .put("cpu", pick(random, "100m", "2", "x"))
              .put("memory", "128Mi");
          res.putObject("limits")
              .put("cpu", pick(random, "1", "50m"))
              .put("memory", pick(random, "1Gi", "64Mi"));
        }
      }
      if (random.nextInt(20) == 0) {
        podSpec.put("restartPolicy", "Never");
      }
    }
    int strategy = random.nextInt(20);
    if (strategy == 0) {
      return root;
    }
    ObjectNode s = spec.putObject("strategy");
    if (strategy <= 4 || strategy == 19) {
      blueGreen(random, s.putObject("blueGreen"));
    }
    if (strategy > 4) {
      canary(random, s.putObject("canary"));
    }
    return root;
  }

  private static void blueGreen(Random random, ObjectNode bg) {
    putText(bg, "activeService", pick(random, SERVICES));
    putText(bg, "previewService", pick(random, SERVICES));
    maybeInt(random, bg, "scaleDownDelayRevisionLimit", 1, 20);
    maybeInt(random, bg, "scaleDownDelaySeconds", 30, -1);
    maybeInt(random, bg, "autoPromotionSeconds", 30, -1);
    maybeInt(random, bg, "previewReplicaCount", 1, -1);
    antiAffinity(random, bg);
    if (random.nextInt(4) == 0) {
      bg.putObject("previewMetadata")
          .putObject("labels")
          .put(pick(random, "role", "-bad"), "preview");
    }
    if (random.nextInt(4) == 0) {
      bg.putObject("activeMetadata")
          .putObject("annotations")
          .put(pick(random, "role", "a/"), "active");
    }
  }

  private static void canary(Random random, ObjectNode c) {
    putValue(c, "maxSurge", pick(random, FENCEPOSTS));
    putValue(c, "maxUnavailable", pick(random, FENCEPOSTS));
    putText(c, "canaryService", pick(random, SERVICES));
    putText(c, "stableService", pick(random, SERVICES));
    maybeInt(random, c, "scaleDownDelaySeconds", 30, -1);
    maybeInt(random, c, "abortScaleDownDelaySeconds", 30, -1);
    if (random.nextInt(8) == 0) {
      c.put("dynamicStableScale", true);
    }
    antiAffinity(random, c);
    if (random.nextInt(4) == 0) {
      c.putObject("canaryMetadata")
          .putObject("labels")
          .put(pick(random, "role", "-bad"), pick(random, "canary", "-x"));
    }
    if (random.nextInt(6) == 0) {
      c.putObject("stableMetadata")
          .putObject("annotations")
          .put(pick(random, "role", "/x"), "stable");
    }
    if (random.nextInt(10) == 0) {
      ObjectNode pp = c.putObject("pingPong");
      putText(pp, "pingService", pick(random, SERVICES));
      putText(pp, "pongService", pick(random, SERVICES));
    }
    if (random.nextInt(3) != 0) {
      ObjectNode tr = c.putObject("trafficRouting");
      switch (random.nextInt(7)) {
        case 0 -> tr.putObject("nginx").put("stableIngress", "web");
        case 1 -> tr.putObject("istio").putObject("virtualService").put("name", "web");
        case 2 -> tr.putObject("alb").put("ingress", "web").put("servicePort", 80);
        case 3 -> tr.putObject("smi");
        case 4 -> tr.putObject("plugins").putObject("example.com/router");
        case 5 -> tr.putObject("apisix").putObject("route").put("name", "web");
        default -> {}
      }
      if (random.nextBoolean()) {
        tr.putArray("managedRoutes").addObject().put("name", "h1");
      }
      maybeInt(random, tr, "maxTrafficWeight", 100, 50);
    }
    if (random.nextInt(10) != 0) {
      ArrayNode steps = c.putArray("steps");
      int n = random.nextInt(8);
      for (int i = 0; i < n; i++) {
        step(random, steps);
      }
    }
  }

  private static void step(Random random, ArrayNode steps) {
    switch (random.nextInt(12)) {
      case 0 -> steps.addObject().put("setWeight", pick(random, 0, 20, 100, 101, -1, 60));
      case 1 -> {
        ObjectNode pause = steps.addObject().putObject("pause");
        putValue(pause, "duration", pick(random, PAUSES));
      }
      case 2 -> {
        ObjectNode t = steps.addObject().putObject("experiment").putArray("templates").addObject();
        t.put("name", "a").put("specRef", "canary");
        if (random.nextBoolean()) {
          t.put("weight", 10);
        }
      }
      case 3 -> steps.addObject().putObject("setCanaryScale").put("weight", 10);
      case 4 -> {
        ObjectNode h =
            steps.addObject().putObject("setHeaderRoute").put("name", pick(random, "h1", "h2"));
        if (random.nextBoolean()) {
          ObjectNode m = h.putArray("match").addObject().put("headerName", "x");
          switch (random.nextInt(4)) {
            case 0 -> m.putObject("headerValue").put("exact", "y");
            case 1 -> m.putObject("headerValue").put("prefix", "y").put("regex", "z");
            case 2 -> m.putObject("headerValue");
            default -> {}
          }
        }
      }
      case 5 -> {
        ObjectNode mr =
            steps.addObject().putObject("setMirrorRoute").put("name", pick(random, "h1", "h2"));
        mr.put("percentage", 10);
        if (random.nextBoolean()) {
          ObjectNode m = mr.putArray("match").addObject();
          if (random.nextBoolean()) {
            m.putObject("method").put("exact", "GET");
          }
          if (random.nextBoolean()) {
            m.putObject("path")
                .put("prefix", "/")
                .put(random.nextBoolean() ? "regex" : "prefix", "/a");
          }
        }
      }
      case 6 ->
          steps
              .addObject()
              .putObject("analysis")
              .putArray("templates")
              .addObject()
              .put("templateName", "x");
      case 7 -> steps.addObject().putObject("plugin").put("name", "example.com/step");
      case 8 -> steps.addObject();
      case 9 -> steps.addObject().put("setWeight", 10).putObject("pause");
      case 10 -> steps.addNull();
      default ->
          steps.addObject().put("setWeight", 10).putObject("setCanaryScale").put("replicas", 1);
    }
  }

  private static void antiAffinity(Random random, ObjectNode parent) {
    if (random.nextInt(6) != 0) {
      return;
    }
    ObjectNode a = parent.putObject("antiAffinity");
    if (random.nextBoolean()) {
      a.putObject("preferredDuringSchedulingIgnoredDuringExecution")
          .put("weight", pick(random, 0, 50, 101));
    }
    if (random.nextInt(3) == 0) {
      a.putObject("requiredDuringSchedulingIgnoredDuringExecution");
    }
  }

  private static void maybeInt(Random random, ObjectNode node, String field, int... values) {
    if (random.nextInt(3) == 0) {
      node.put(field, values[random.nextInt(values.length)]);
    }
  }

  private static void putText(ObjectNode node, String field, String value) {
    if (value != null) {
      node.put(field, value);
    }
  }

  private static void putValue(ObjectNode node, String field, Object value) {
    if (value instanceof Integer i) {
      node.put(field, i);
    } else if (value instanceof String s) {
      node.put(field, s);
    }
  }

  @SafeVarargs
  private static <T> T pick(Random random, T... values) {
    return values[random.nextInt(values.length)];
  }
}
