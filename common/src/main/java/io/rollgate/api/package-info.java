/**
 * Java model of the Argo Rollouts API ({@code argoproj.io/v1alpha1}) as Rollgate reads and writes
 * it.
 *
 * <p>The classes are mutable beans that mirror the wire format field by field: JSON names are
 * spelled exactly as in Argo Rollouts (for example {@code HPAReplicas}, {@code stableRS}), numbers
 * and booleans are boxed so that an absent field stays absent, collections are {@code null} unless
 * present, times are RFC 3339 strings and durations keep their wire form ({@code IntOrString} or Go
 * duration strings). Conversions belong to the code that uses the model. Unknown JSON properties
 * are preserved on every object (see {@link io.rollgate.api.ModelObject}), so a read-modify-write
 * by Rollgate never drops fields written by a newer Argo Rollouts or another tool.
 *
 * <p>The package is pure: it depends only on {@code java.*}, Jackson and the fabric8 model types
 * and annotations ({@code CustomResource} is the only class used from the fabric8 client). The
 * Rollout CRD is generated from {@link io.rollgate.api.Rollout} at build time into {@code
 * META-INF/fabric8/rollouts.argoproj.io-v1.yml}.
 */
package io.rollgate.api;
