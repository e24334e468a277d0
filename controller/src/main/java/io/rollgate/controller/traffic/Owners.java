package io.rollgate.controller.traffic;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.rollgate.api.Rollout;

/**
 * Controller owner references between a Rollout and the router objects it generates (canary
 * Ingress, TrafficSplit).
 */
final class Owners {

  private Owners() {}

  static OwnerReference controllerRef(Rollout rollout) {
    return new OwnerReferenceBuilder()
        .withApiVersion("argoproj.io/v1alpha1")
        .withKind("Rollout")
        .withName(rollout.getMetadata().getName())
        .withUid(rollout.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  /** Whether {@code obj}'s controller owner is the Rollout. */
  static boolean controlledBy(HasMetadata obj, Rollout rollout) {
    if (obj.getMetadata().getOwnerReferences() == null) {
      return false;
    }
    for (OwnerReference o : obj.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(o.getController())) {
        return rollout.getMetadata().getUid().equals(o.getUid());
      }
    }
    return false;
  }
}
