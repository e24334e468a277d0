package io.rollgate.controller.options;

import io.rollgate.controller.traffic.RouterApiVersions;
import io.rollgate.kube.lease.LeaderElection;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Settings of the controller process, from its command-line flags (names as Argo Rollouts'
 * controller).
 *
 * @param kubeconfig path of a kubeconfig file, or null for {@code KUBECONFIG} / in-cluster
 * @param instanceId the {@code --instance-id}; empty means "objects without the instance label"
 * @param namespace the only namespace watched, or null for all namespaces
 * @param rolloutThreads concurrent Rollout reconciles ({@code --rollout-threads})
 * @param resync informer resync period ({@code --rollout-resync}, default 900 s)
 * @param kubeApiThreads worker threads for blocking API calls
 * @param apiTimeout bound of one API call
 * @param qps client-side rate limit, in API calls per second ({@code --qps}, default 40)
 * @param burst client-side burst, in API calls ({@code --burst}, default 80)
 * @param metricsPort port of {@code /metrics} ({@code --metricsport}, default 8090)
 * @param healthzPort port of {@code /healthz} and {@code /readyz} ({@code --healthzPort}, default
 *     8080)
 * @param leaderElection the Lease settings, or null when {@code --leader-elect=false}
 * @param drainTimeout how long a graceful stop waits for the reconciles in flight
 * @param analysisThreads concurrent AnalysisRun reconciles ({@code --analysis-threads}, default 30)
 * @param clusterTemplates whether ClusterAnalysisTemplates (cluster-scoped) are watched; false with
 *     {@code --namespaced}, whose namespaced RBAC cannot read a cluster-scoped kind (references to
 *     one then report it as not found)
 * @param pluginDir the folder executable plugins are fetched into ({@code --plugin-dir})
 * @param pluginCallTimeout bound of one plugin call ({@code --plugin-call-timeout}, default 30 s)
 * @param pluginHandshakeTimeout how long an executable plugin has to write its handshake line
 *     ({@code --plugin-handshake-timeout}, default 10 s)
 * @param pluginNamespace the namespace of the plugin registry ConfigMap {@code
 *     argo-rollouts-config} (the controller's namespace, docs/compatibility.md §10.1)
 * @param experimentThreads concurrent Experiment reconciles ({@code --experiment-threads}, default
 *     10)
 * @param routerApiVersions the Traefik, Ambassador and App Mesh object versions ({@code
 *     --traefik-api-group}, {@code --traefik-api-version}, {@code --ambassador-api-version}, {@code
 *     --appmesh-crd-version})
 * @param pluginBridge the plugin bridge for Argo Rollouts' go-plugin binaries ({@code
 *     --plugin-bridge}), or null to look for it (docs/plugins.md, "Go plugins of Argo Rollouts")
 * @param selfServiceNotifications whether notification configurations are also read from each
 *     Rollout's namespace ({@code --self-service-notification-enabled}, docs/notifications.md)
 * @param awsVerifyTargetGroup whether ALB canary weights are verified against the AWS target groups
 *     ({@code --aws-verify-target-group}, docs/traffic-routers.md "AWS ALB")
 */
public record ControllerOptions(
    String kubeconfig,
    String instanceId,
    String namespace,
    int rolloutThreads,
    Duration resync,
    int kubeApiThreads,
    Duration apiTimeout,
    double qps,
    int burst,
    int metricsPort,
    int healthzPort,
    LeaderElection.Settings leaderElection,
    Duration drainTimeout,
    int analysisThreads,
    boolean clusterTemplates,
    Path pluginDir,
    Duration pluginCallTimeout,
    Duration pluginHandshakeTimeout,
    String pluginNamespace,
    int experimentThreads,
    RouterApiVersions routerApiVersions,
    Path pluginBridge,
    boolean selfServiceNotifications,
    boolean awsVerifyTargetGroup) {}
