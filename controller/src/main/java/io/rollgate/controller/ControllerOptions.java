package io.rollgate.controller;

import java.time.Duration;

/**
 * Settings of the controller process, from its command-line flags (names as Argo Rollouts' controller).
 *
 * @param kubeconfig path of a kubeconfig file, or null for {@code KUBECONFIG} / in-cluster
 * @param instanceId the {@code --instance-id}; empty means "objects without the instance label"
 * @param namespace the only namespace watched, or null for all namespaces
 * @param rolloutThreads concurrent Rollout reconciles ({@code --rollout-threads})
 * @param resync informer resync period ({@code --rollout-resync}, default 900 s)
 * @param kubeApiThreads worker threads for blocking API calls
 * @param apiTimeout bound of one API call
 */
public record ControllerOptions(
    String kubeconfig,
    String instanceId,
    String namespace,
    int rolloutThreads,
    Duration resync,
    int kubeApiThreads,
    Duration apiTimeout) {}
