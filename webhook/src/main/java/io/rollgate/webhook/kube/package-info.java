/**
 * The webhook's asynchronous facade over the API server ({@link
 * io.rollgate.webhook.kube.WebhookApi}).
 */
package io.rollgate.webhook.kube;
