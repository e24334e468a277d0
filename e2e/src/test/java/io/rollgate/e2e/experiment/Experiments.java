package io.rollgate.e2e.experiment;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplate;
import io.rollgate.api.Experiment;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;

/**
 * Experiment helpers for the e2e tests: create from YAML, read, wait, their ReplicaSets, runs and
 * events.
 */
final class Experiments {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final KubernetesClient client;
  private final String namespace;

  Experiments(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /**
   * Creates the AnalysisTemplates {@code pass} (a Job that completes) and {@code fail} (a Job that
   * gives up).
   */
  void createTemplates() {
    for (String t : List.of("pass", "fail")) {
      AnalysisTemplate template =
          client
              .getKubernetesSerialization()
              .unmarshal(read("experiment/template-" + t + ".yaml"), AnalysisTemplate.class);
      client.resources(AnalysisTemplate.class).inNamespace(namespace).resource(template).create();
    }
  }

  Experiment create(String resource, Map<String, String> vars) {
    String yaml = read(resource);
    for (Map.Entry<String, String> e : vars.entrySet()) {
      yaml = yaml.replace("${" + e.getKey() + "}", e.getValue());
    }
    Experiment ex = client.getKubernetesSerialization().unmarshal(yaml, Experiment.class);
    return client.resources(Experiment.class).inNamespace(namespace).resource(ex).create();
  }

  Experiment get(String name) {
    return client.resources(Experiment.class).inNamespace(namespace).withName(name).get();
  }

  /** Experiments whose controller owner is the named Rollout, oldest first. */
  List<Experiment> ownedBy(String rollout) {
    return client.resources(Experiment.class).inNamespace(namespace).list().getItems().stream()
        .filter(
            e ->
                e.getMetadata().getOwnerReferences() != null
                    && e.getMetadata().getOwnerReferences().stream()
                        .anyMatch(
                            o ->
                                Boolean.TRUE.equals(o.getController())
                                    && "Rollout".equals(o.getKind())
                                    && rollout.equals(o.getName())))
        .sorted(
            Comparator.comparing((Experiment e) -> e.getMetadata().getCreationTimestamp())
                .thenComparing(e -> e.getMetadata().getName()))
        .collect(Collectors.toList());
  }

  Experiment await(String name, String what, Duration timeout, Predicate<Experiment> condition) {
    Experiment[] last = new Experiment[1];
    try {
      Awaitility.await(what)
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .until(
              () -> {
                last[0] = get(name);
                return last[0] != null && condition.test(last[0]);
              });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError(
          what + "; last seen: " + (last[0] == null ? "none" : last[0].getStatus()), e);
    }
    return last[0];
  }

  ReplicaSet replicaSet(String name) {
    return client.apps().replicaSets().inNamespace(namespace).withName(name).get();
  }

  AnalysisRun awaitRun(
      String name, String what, Duration timeout, Predicate<AnalysisRun> condition) {
    AnalysisRun[] last = new AnalysisRun[1];
    Awaitility.await(what + " (run " + name + ")")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(
            () -> {
              last[0] =
                  client.resources(AnalysisRun.class).inNamespace(namespace).withName(name).get();
              return last[0] != null && condition.test(last[0]);
            });
    return last[0];
  }

  /** The events whose involved object is the named Experiment. */
  List<Event> events(String name) {
    List<Event> out = new ArrayList<>();
    for (Event e : client.v1().events().inNamespace(namespace).list().getItems()) {
      var o = e.getInvolvedObject();
      if (o != null && "Experiment".equals(o.getKind()) && name.equals(o.getName())) {
        out.add(e);
      }
    }
    return out;
  }

  List<String> eventReasons(String name) {
    return events(name).stream().map(Event::getReason).collect(Collectors.toList());
  }

  static String httpGet(int port, String path) {
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("GET " + path + " answered " + r.statusCode());
      }
      return r.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static String read(String resource) {
    try (InputStream in = Experiments.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
