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
 * The AnalysisRun custom resource, {@code argoproj.io/v1alpha1} kind {@code AnalysisRun} (plural
 * {@code analysisruns}, short name {@code ar}, namespaced), wire-compatible with Argo Rollouts
 * (docs/compatibility.md §0, §9).
 *
 * <p>As upstream, the CRD has <b>no status subresource</b>: {@code status} is part of the main
 * resource and is written with a normal patch guarded by {@code resourceVersion}. The build removes
 * the status subresource that the CRD generator would otherwise add (see {@code
 * build-tools/CrdWithoutStatusSubresource.java}). Printer columns: Status ({@code .status.phase})
 * and Age.
 */
@Group("argoproj.io")
@Version("v1alpha1")
@Kind("AnalysisRun")
@Plural("analysisruns")
@ShortNames("ar")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AnalysisRun extends ModelCustomResource<AnalysisRunSpec, AnalysisRunStatus>
    implements Namespaced {}
