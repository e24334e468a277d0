package io.rollgate.webhook;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The webhook's settings, from the command line.
 *
 * @param host the bind address
 * @param port the HTTPS port
 * @param namespace the namespace the webhook's Service lives in
 * @param serviceName the webhook's Service name
 * @param extraSans extra SANs (DNS names or IPs) for the serving certificate
 * @param secretNamespace the namespace of the certificate Secret
 * @param secretName the certificate Secret's name
 * @param caValidity the CA's lifetime
 * @param certValidity the serving certificate's lifetime
 * @param renewBefore renew when a certificate expires within this window
 * @param certCheckInterval how often the Secret is checked (and repaired or reloaded)
 * @param registerUrl the https base URL to register, or null to register nothing
 * @param validatingName the ValidatingWebhookConfiguration's name
 * @param mutatingName the MutatingWebhookConfiguration's name
 * @param namespaceSelector labels a namespace must carry to be covered by the registered
 *     configurations
 * @param mutate whether {@code /mutate} patches (and the mutating configuration is registered)
 * @param bodyLimit the request body limit, in bytes
 * @param pluginConfigNamespace the namespace of the plugin registry ConfigMap {@code
 *     argo-rollouts-config}
 * @param leaderElect whether replicas elect a leader (Lease) to renew the certificate and audit
 *     policies
 * @param leaseName the Lease's name, in {@code namespace}
 * @param auditInterval the period of the RolloutPolicy audit
 * @param eventLoops how many Vert.x event loops serve HTTPS (at least 1; the default is the number
 *     of cores)
 */
public record WebhookOptions(
    String host,
    int port,
    String namespace,
    String serviceName,
    List<String> extraSans,
    String secretNamespace,
    String secretName,
    Duration caValidity,
    Duration certValidity,
    Duration renewBefore,
    Duration certCheckInterval,
    String registerUrl,
    String validatingName,
    String mutatingName,
    Map<String, String> namespaceSelector,
    boolean mutate,
    long bodyLimit,
    String pluginConfigNamespace,
    boolean leaderElect,
    String leaseName,
    Duration auditInterval,
    int eventLoops) {

  /**
   * The serving certificate's SANs: {@code <service>.<ns>.svc}, {@code
   * <service>.<ns>.svc.cluster.local}, {@code <service>}, then the extra ones.
   *
   * @return the SANs, first one used as the CN
   */
  public List<String> sans() {
    List<String> sans = new ArrayList<>();
    sans.add(serviceName + "." + namespace + ".svc");
    sans.add(serviceName + "." + namespace + ".svc.cluster.local");
    sans.add(serviceName);
    for (String s : extraSans) {
      if (!sans.contains(s)) {
        sans.add(s);
      }
    }
    return sans;
  }
}
