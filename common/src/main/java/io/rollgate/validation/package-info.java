/**
 * Pure validation of Rollgate and Argo Rollouts objects: an object in, a list of {@link
 * io.rollgate.validation.FieldError} (field path and reason) out. Shared by the controller, which
 * reports the first error in the {@code InvalidSpec} condition, and the admission webhook, which
 * lists them all.
 */
package io.rollgate.validation;
