package io.rollgate.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The cluster-scoped {@code rollgate.io/v1alpha1} kind {@code RolloutPolicy} (plural {@code
 * rolloutpolicies}, short name {@code rop}), with the {@code status} subresource. {@code spec} and
 * {@code status} are {@code null} until set.
 */
@Group("rollgate.io")
@Version("v1alpha1")
@Kind("RolloutPolicy")
@Plural("rolloutpolicies")
@ShortNames("rop")
@AdditionalPrinterColumn(
    name = "Action",
    jsonPath = ".spec.enforcementAction",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Violations",
    jsonPath = ".status.totalViolations",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RolloutPolicy extends CustomResource<RolloutPolicySpec, RolloutPolicyStatus> {

  /** API group of the kind. */
  public static final String GROUP = "rollgate.io";
}
