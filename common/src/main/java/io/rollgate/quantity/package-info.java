/**
 * Kubernetes resource quantities: one reading of the {@code resource.Quantity} grammar, shared by
 * the validators (accept or refuse, value, comparison) and the controller (the form Go writes back,
 * which the pod-template hash covers). Pure functions of the text.
 */
package io.rollgate.quantity;
