package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ClusterWatchTest {

  @Test
  void findsTheApiServersStatus_throughTheWrappingAnInformerReportsItIn() {
    KubernetesClientException notFound = new KubernetesClientException("Not Found", 404, null);
    assertEquals(404, ClusterWatch.httpCode(new CompletionException(notFound)));
    assertEquals(404, ClusterWatch.httpCode(notFound));
    assertEquals(
        403,
        ClusterWatch.httpCode(
            new CompletionException(new KubernetesClientException("no", 403, null))));
    assertEquals(
        -1,
        ClusterWatch.httpCode(
            new CompletionException(new java.io.IOException("connection refused"))));
    assertEquals(-1, ClusterWatch.httpCode(null));
  }

  @Test
  void saysWhyAListFailed_inAFewWords() {
    assertEquals(
        "HTTP 404: the kind is not served (its CRD is not installed)",
        ClusterWatch.failureReason(404, new KubernetesClientException("Not Found", 404, null)));
    assertEquals(
        "HTTP 403: the webhook's credentials may not list and watch it (RBAC)",
        ClusterWatch.failureReason(403, new KubernetesClientException("no", 403, null)));
    assertEquals(
        "IOException: connection refused",
        ClusterWatch.failureReason(
            -1, new CompletionException(new java.io.IOException("connection refused"))));
  }
}
