package io.rollgate.controller.rollout.cache;

import io.rollgate.api.BlueGreenStrategy;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.ObjectRef;
import io.rollgate.api.Rollout;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a Rollout refers to by name: the Services of its strategy and the Deployment of its {@code
 * spec.workloadRef}; functions of the Rollout alone, used to map a changed Service or Deployment
 * back to its Rollouts.
 */
public final class RolloutReferences {

  private RolloutReferences() {}

  /**
   * Every Service name the Rollout's strategy refers to (empty names left out): {@code
   * blueGreen.activeService}, {@code blueGreen.previewService}, {@code canary.stableService},
   * {@code canary.canaryService} and the ping-pong pair.
   *
   * @param rollout the Rollout
   * @return the names, in that order
   */
  public static Set<String> services(Rollout rollout) {
    Set<String> names = new LinkedHashSet<>();
    if (rollout.getSpec() == null || rollout.getSpec().getStrategy() == null) {
      return names;
    }
    BlueGreenStrategy bg = rollout.getSpec().getStrategy().getBlueGreen();
    if (bg != null) {
      addName(names, bg.getActiveService());
      addName(names, bg.getPreviewService());
    }
    CanaryStrategy c = rollout.getSpec().getStrategy().getCanary();
    if (c != null) {
      addName(names, c.getStableService());
      addName(names, c.getCanaryService());
      if (c.getPingPong() != null) {
        addName(names, c.getPingPong().getPingService());
        addName(names, c.getPingPong().getPongService());
      }
    }
    return names;
  }

  private static void addName(Set<String> names, String name) {
    if (name != null && !name.isEmpty()) {
      names.add(name);
    }
  }

  /**
   * The API group of {@code apiVersion} ({@code apps/v1} gives {@code apps}, {@code v1} gives the
   * empty core group).
   *
   * @param apiVersion the apiVersion, may be null
   * @return the group, empty for the core group or a null apiVersion
   */
  public static String group(String apiVersion) {
    if (apiVersion == null) {
      return "";
    }
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  /**
   * Whether a Rollout names the Deployment in its {@code spec.workloadRef}.
   *
   * @param rollout the Rollout
   * @param namespace the Deployment's namespace
   * @param name the Deployment's name
   * @return true when the Rollout references it
   */
  public static boolean workload(Rollout rollout, String namespace, String name) {
    if (rollout.getSpec() == null || rollout.getSpec().getWorkloadRef() == null) {
      return false;
    }
    ObjectRef ref = rollout.getSpec().getWorkloadRef();
    return namespace.equals(rollout.getMetadata().getNamespace())
        && "Deployment".equals(ref.getKind())
        && "apps".equals(group(ref.getApiVersion()))
        && name.equals(ref.getName());
  }
}
