package io.rollgate.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.kube.RequestBudgets.Client;
import org.junit.jupiter.api.Test;

class RequestBudgetsTest {

  @Test
  void sortsResourcesIntoArgosThreeClients() {
    assertEquals(Client.ARGOPROJ, RequestBudgets.clientOf("rollouts"));
    assertEquals(Client.ARGOPROJ, RequestBudgets.clientOf("rollouts/status"));
    assertEquals(Client.ARGOPROJ, RequestBudgets.clientOf("AnalysisRun"));
    assertEquals(Client.KUBERNETES, RequestBudgets.clientOf("replicasets"));
    assertEquals(Client.KUBERNETES, RequestBudgets.clientOf("events"));
    assertEquals(Client.KUBERNETES, RequestBudgets.clientOf("pods/eviction"));
    assertEquals(Client.KUBERNETES, RequestBudgets.clientOf("ingress"));
    assertEquals(Client.CUSTOM, RequestBudgets.clientOf("virtualservice"));
    assertEquals(Client.CUSTOM, RequestBudgets.clientOf("trafficsplits"));
  }

  @Test
  void eachClientHasItsOwnBucket() {
    long[] now = {0};
    RequestBudgets budgets = new RequestBudgets(10, 2, () -> now[0]);
    assertEquals(0, budgets.reserve("rollouts/status"));
    assertEquals(0, budgets.reserve("rollouts"));
    assertTrue(
        budgets.reserve("rollouts") > 0, "the third argoproj call within the burst of 2 waits");
    assertEquals(0, budgets.reserve("replicasets"), "Kubernetes kinds draw from their own bucket");
    assertEquals(0, budgets.reserve("events"));
    assertEquals(0, budgets.reserve("virtualservice"), "router kinds draw from a third bucket");
  }

  @Test
  void aSharedBucketLimitsEveryCallTogether() {
    long[] now = {0};
    RequestBudgets budgets = RequestBudgets.shared(new TokenBucket(10, 2, () -> now[0]));
    assertEquals(0, budgets.reserve("rollouts"));
    assertEquals(0, budgets.reserve("replicasets"));
    assertTrue(budgets.reserve("virtualservice") > 0);
  }
}
