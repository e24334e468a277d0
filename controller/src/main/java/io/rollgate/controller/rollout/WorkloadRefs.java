package io.rollgate.controller.rollout;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.ModelJson;
import io.rollgate.api.ObjectRef;
import io.rollgate.api.RolloutPhase;
import io.rollgate.api.RolloutSpec;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.cache.RolloutReferences;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.validation.FieldError;
import io.vertx.core.Future;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves {@code spec.workloadRef} (docs/compatibility.md §1.1, §6): the pod template (and, for a
 * Deployment or ReplicaSet, the selector) of the referenced object replace the Rollout's own in the
 * pass's in-memory copy only; nothing is written back into the Rollout's spec.
 *
 * <p>A referenced Deployment is read from the Deployment informer (its events re-enqueue the
 * Rollouts naming it, so a new Deployment template rolls out like a Rollout template change).
 * ReplicaSets and PodTemplates are read directly from the API server each pass: users rarely point
 * Rollouts at them, and watching every ReplicaSet and PodTemplate in the namespace only to serve
 * that case would cost more memory than one GET per pass.
 */
final class WorkloadRefs {

  private static final Logger LOG = LoggerFactory.getLogger(WorkloadRefs.class);

  /** {@code spec.workloadRef.scaleDown}: leave the Deployment alone (default). */
  static final String SCALE_DOWN_NEVER = "never";

  /** {@code spec.workloadRef.scaleDown}: scale the Deployment to 0 once the Rollout is Healthy. */
  static final String SCALE_DOWN_ON_SUCCESS = "onsuccess";

  /**
   * {@code spec.workloadRef.scaleDown}: shrink the Deployment as the Rollout's pods become ready.
   */
  static final String SCALE_DOWN_PROGRESSIVELY = "progressively";

  private final RolloutCache cache;
  private final KubeApi api;

  WorkloadRefs(RolloutCache cache, KubeApi api) {
    this.cache = cache;
    this.api = api;
  }

  /**
   * Resolves the workload into {@code pass.rollout}'s spec and records its generation in the pass.
   *
   * @param pass the pass; {@code pass.rollout.spec.workloadRef} must be set
   * @return a Future completing with the error to report as {@code InvalidSpec} on {@code
   *     spec.workloadRef}, or empty when the template was resolved; fails with the API error when
   *     the read itself failed
   */
  Future<Optional<FieldError>> resolve(RolloutPass pass) {
    ObjectRef ref = pass.rollout.getSpec().getWorkloadRef();
    String group = RolloutReferences.group(ref.getApiVersion());
    String kind = ref.getKind() == null ? "" : ref.getKind();
    String name = ref.getName();
    Future<? extends HasMetadata> read;
    String notFound;
    if ("apps".equals(group) && "Deployment".equals(kind)) {
      Deployment cached = cache.deployment(pass.namespace(), name);
      read =
          cached != null
              ? Future.succeededFuture(cached)
              : api.get(Deployment.class, pass.namespace(), name);
      notFound = "deployments.apps \"" + name + "\" not found";
    } else if ("apps".equals(group) && "ReplicaSet".equals(kind)) {
      read = api.get(ReplicaSet.class, pass.namespace(), name);
      notFound = "replicasets.apps \"" + name + "\" not found";
    } else if (group.isEmpty() && "PodTemplate".equals(kind)) {
      read = api.get(PodTemplate.class, pass.namespace(), name);
      notFound = "podtemplates \"" + name + "\" not found";
    } else {
      return Future.succeededFuture(
          Optional.of(
              FieldError.invalid(
                  "spec.workloadRef",
                  name,
                  "workload of type " + group + "/" + kind + " is not supported")));
    }
    return read.map(
        obj -> {
          if (obj == null) {
            return Optional.of(FieldError.invalid("spec.workloadRef", name, notFound));
          }
          apply(pass, obj);
          return Optional.empty();
        });
  }

  private static void apply(RolloutPass pass, HasMetadata obj) {
    RolloutSpec spec = pass.rollout.getSpec();
    PodTemplateSpec template;
    LabelSelector selector = null;
    if (obj instanceof Deployment d) {
      template = d.getSpec().getTemplate();
      selector = d.getSpec().getSelector();
    } else if (obj instanceof ReplicaSet rs) {
      template = rs.getSpec().getTemplate();
      selector = rs.getSpec().getSelector();
    } else {
      template = ((PodTemplate) obj).getTemplate();
    }
    spec.setTemplate(template == null ? null : ModelJson.deepCopy(template));
    if (selector != null) {
      spec.setSelector(ModelJson.deepCopy(selector));
    }
    pass.workload = obj;
    Long generation = obj.getMetadata().getGeneration();
    pass.workloadGeneration = String.valueOf(generation == null ? 0 : generation);
  }

  /**
   * Applies {@code spec.workloadRef.scaleDown} to a referenced Deployment from the status read at
   * the start of the pass: {@code onsuccess} scales it to 0 once the Rollout is Healthy; {@code
   * progressively} keeps it at {@code spec.replicas - status.readyReplicas} (replicas) while
   * revision 1 rolls out, and at 0 once Healthy.
   *
   * @param pass the pass, after {@link #resolve(RolloutPass)} succeeded
   * @return a Future completing when the Deployment has the wanted size; fails with the API error
   */
  Future<Void> scaleDown(RolloutPass pass) {
    ObjectRef ref = pass.rollout.getSpec().getWorkloadRef();
    if (!(pass.workload instanceof Deployment deployment)) {
      return Future.succeededFuture();
    }
    String mode =
        ref.getScaleDown() == null ? SCALE_DOWN_NEVER : ref.getScaleDown().toLowerCase(Locale.ROOT);
    if (!SCALE_DOWN_ON_SUCCESS.equals(mode) && !SCALE_DOWN_PROGRESSIVELY.equals(mode)) {
      return Future.succeededFuture();
    }
    var old = pass.old;
    boolean healthy =
        RolloutPhase.HEALTHY.equals(old.getPhase())
            && old.getStableRS() != null
            && old.getStableRS().equals(old.getCurrentPodHash())
            && String.valueOf(pass.rollout.getMetadata().getGeneration())
                .equals(old.getObservedGeneration());
    int target;
    if (healthy) {
      target = 0;
    } else if (SCALE_DOWN_PROGRESSIVELY.equals(mode)
        && (pass.revision().isEmpty() || "1".equals(pass.revision()))) {
      int ready = old.getReadyReplicas() == null ? 0 : old.getReadyReplicas();
      target = Math.max(0, pass.replicas - ready);
    } else {
      return Future.succeededFuture();
    }
    Integer current = deployment.getSpec().getReplicas();
    if (current != null && current == target) {
      return Future.succeededFuture();
    }
    String name = deployment.getMetadata().getName();
    LOG.info(
        "{} scaling referenced Deployment {} from {} to {} (scaleDown: {})",
        pass.ctx,
        name,
        current,
        target,
        mode);
    return api.patch(
            Deployment.class,
            pass.namespace(),
            name,
            null,
            "{\"spec\":{\"replicas\":" + target + "}}")
        .onSuccess(
            updated -> {
              cache.wrote(updated);
              pass.workload = updated;
              pass.event(
                  "ScalingDeployment",
                  "Scaled Deployment "
                      + name
                      + " from "
                      + (current == null ? 1 : current)
                      + " to "
                      + target);
            })
        .mapEmpty();
  }
}
