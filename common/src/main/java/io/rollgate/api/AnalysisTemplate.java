package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The AnalysisTemplate custom resource, {@code argoproj.io/v1alpha1} kind {@code AnalysisTemplate}
 * (plural {@code analysistemplates}, short name {@code at}, namespaced), wire-compatible with Argo
 * Rollouts (docs/compatibility.md §0, §9.1): a reusable set of metrics that Rollouts and
 * Experiments turn into AnalysisRuns. It has no status (the CRD schema has no {@code status}
 * property, as upstream).
 */
@Group("argoproj.io")
@Version("v1alpha1")
@Kind("AnalysisTemplate")
@Plural("analysistemplates")
@ShortNames("at")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@JsonIgnoreProperties("status")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisTemplate extends ModelCustomResource<AnalysisTemplateSpec, Void>
    implements Namespaced {}
