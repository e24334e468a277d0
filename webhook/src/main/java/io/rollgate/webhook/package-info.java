/**
 * The Rollgate admission webhook: AdmissionReview handling for Rollouts ({@code /validate}, {@code
 * /mutate}), health and metrics routes, registration of the webhook configurations, and the process
 * entry point.
 */
package io.rollgate.webhook;
