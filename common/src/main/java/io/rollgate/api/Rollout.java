package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The Rollout custom resource, {@code argoproj.io/v1alpha1} kind {@code Rollout} (plural {@code
 * rollouts}, short name {@code ro}, namespaced), wire-compatible with Argo Rollouts.
 *
 * <p>The CRD generated from this class has the {@code status} subresource and the {@code scale}
 * subresource ({@code .spec.replicas}, {@code .status.HPAReplicas}, {@code .status.selector}), as
 * Argo's does. {@code spec} and {@code status} are {@code null} until set. Top-level JSON
 * properties other than {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec} and {@code
 * status} are kept in {@link #getAdditionalProperties()}.
 */
@Group("argoproj.io")
@Version("v1alpha1")
@Kind("Rollout")
@Plural("rollouts")
@ShortNames("ro")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Rollout extends ModelCustomResource<RolloutSpec, RolloutStatus>
    implements Namespaced {}
