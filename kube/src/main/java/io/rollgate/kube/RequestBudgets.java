package io.rollgate.kube;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The client-side request budget of {@code --qps}/{@code --burst}: one token bucket per API client,
 * as Argo Rollouts' controller has them, so that the same flags allow the same traffic after a
 * migration.
 *
 * <p>Argo's controller builds a separate client-go clientset for Kubernetes' own kinds, for its
 * {@code argoproj.io} kinds and for other custom resources (the traffic routers' kinds), each from
 * the same {@code --qps}/{@code --burst}; client-go gives every clientset its own token bucket. So
 * {@code --qps 40} allows up to 40 calls per second to each of the three groups. Rollgate sends
 * every call through one facade and sorts it by resource into the same three budgets ({@link
 * Client}). docs/operating.md explains the flag.
 */
public final class RequestBudgets {

  /** Which of Argo's API clients a call belongs to, and so which token bucket it takes from. */
  public enum Client {
    /**
     * Kubernetes' built-in kinds: ReplicaSets, Services, Events, Pods, Ingresses, Jobs, Secrets,
     * ...
     */
    KUBERNETES,
    /**
     * The {@code argoproj.io} kinds: Rollouts, AnalysisRuns, AnalysisTemplates,
     * ClusterAnalysisTemplates, Experiments.
     */
    ARGOPROJ,
    /**
     * Any other custom resource: the traffic routers' kinds (Istio, SMI, Ambassador, APISIX,
     * Traefik, ...).
     */
    CUSTOM
  }

  private static final Set<String> ARGOPROJ =
      Set.of(
          "rollouts", "rollout",
          "analysisruns", "analysisrun",
          "analysistemplates", "analysistemplate",
          "clusteranalysistemplates", "clusteranalysistemplate",
          "experiments", "experiment");

  private static final Set<String> KUBERNETES =
      Set.of(
          "events",
          "event",
          "replicasets",
          "replicaset",
          "deployments",
          "deployment",
          "services",
          "service",
          "endpoints",
          "endpointslices",
          "endpointslice",
          "pods",
          "pod",
          "secrets",
          "secret",
          "configmaps",
          "configmap",
          "jobs",
          "job",
          "ingresses",
          "ingress",
          "leases",
          "lease",
          "namespaces",
          "namespace",
          "serviceaccounts",
          "serviceaccount",
          "horizontalpodautoscalers",
          "horizontalpodautoscaler",
          "poddisruptionbudgets",
          "poddisruptionbudget");

  private final Map<Client, TokenBucket> buckets = new EnumMap<>(Client.class);

  /**
   * Creates the three budgets, each a full bucket.
   *
   * @param qps calls per second allowed to each client ({@code --qps}); must be positive
   * @param burst the bucket size of each client, in calls ({@code --burst}); must be at least 1
   * @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime} outside tests)
   * @throws IllegalArgumentException when qps or burst is out of range
   */
  public RequestBudgets(double qps, int burst, LongSupplier nanoTime) {
    for (Client c : Client.values()) {
      buckets.put(c, new TokenBucket(qps, burst, nanoTime));
    }
  }

  private RequestBudgets(TokenBucket shared) {
    for (Client c : Client.values()) {
      buckets.put(c, shared);
    }
  }

  /**
   * One bucket for every call, whatever its resource.
   *
   * @param bucket the shared bucket
   * @return budgets that all take from {@code bucket}
   */
  public static RequestBudgets shared(TokenBucket bucket) {
    return new RequestBudgets(bucket);
  }

  /**
   * Takes one token from the budget of the client {@code resource} belongs to.
   *
   * @param resource the resource of the call, plural or lower-case kind, optionally with a
   *     subresource ({@code rollouts/status}, {@code replicasets}, {@code virtualservice})
   * @return how long the caller must wait before making its call, in nanoseconds; 0 when a token
   *     was available
   */
  public long reserve(String resource) {
    return buckets.get(clientOf(resource)).reserve();
  }

  /**
   * The bucket of the client {@code resource} belongs to.
   *
   * @param resource the resource of the call, as for {@link #reserve}
   * @return the bucket (the same instance for every resource of one client)
   */
  public TokenBucket bucket(String resource) {
    return buckets.get(clientOf(resource));
  }

  /**
   * Sorts a resource into one of Argo's API clients.
   *
   * @param resource the plural or lower-case kind, optionally with a subresource after a slash
   * @return the client; {@link Client#CUSTOM} for any resource that is neither built in nor an
   *     {@code argoproj.io} kind
   */
  public static Client clientOf(String resource) {
    String r = resource == null ? "" : resource.toLowerCase(Locale.ROOT);
    int slash = r.indexOf('/');
    if (slash >= 0) {
      r = r.substring(0, slash);
    }
    if (ARGOPROJ.contains(r)) {
      return Client.ARGOPROJ;
    }
    return KUBERNETES.contains(r) ? Client.KUBERNETES : Client.CUSTOM;
  }
}
